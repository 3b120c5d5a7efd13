//===- examples/common/report.h - what the check drivers print ------------===//
//
// Host helpers the example drivers (examples/gemm/main.cu,
// examples/attention/main.cu) share: medians of timings and the numbers and
// strings of their tables and JSON.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

/// The q-quantile (0 <= q <= 1) of `v`, interpolated linearly; `v` not
/// empty.
inline double percentile(std::vector<float> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * double(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return double(v[lo]) + (at - double(lo)) * (double(v[hi]) - double(v[lo]));
}

/// `s` as a JSON string literal.
inline std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

/// `x` as a JSON number, null where it is not finite.
inline std::string json_number(double x) {
  if (!std::isfinite(x))
    return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

/// `x` in a table's column: "1.23e-04", "-" for NaN, "inf".
inline std::string short_number(double x) {
  if (std::isnan(x))
    return "-";
  if (std::isinf(x))
    return "inf";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}
