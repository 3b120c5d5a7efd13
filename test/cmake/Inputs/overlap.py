"""Exits 0 when the build steps named on the command line ran at the same
time, by the start and end times (ms) of .ninja_log (the first argument)."""
import sys

log, outputs = sys.argv[1], sys.argv[2:]
spans = {}
for line in open(log):
    if line.startswith("#"):
        continue
    start, end, _, output, _ = line.split("\t")
    if output in outputs:
        spans[output] = (int(start), int(end))  # the last run counts
missing = [o for o in outputs if o not in spans]
if missing:
    sys.exit("not in %s: %s" % (log, missing))
latest_start = max(s for s, _ in spans.values())
earliest_end = min(e for _, e in spans.values())
if latest_start >= earliest_end:
    sys.exit("ran one after the other: %s" % spans)
print("ran together: %s" % spans)
