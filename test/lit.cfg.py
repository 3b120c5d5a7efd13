# lit configuration of tawa-rewrite's test suite (test/README.md).
import os
import shutil
import sys

import lit.formats
import lit.util

config.name = "tawa-rewrite"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tawa_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])

inputs = os.path.join(config.test_source_root, "Inputs")
# Parsing against the stand-in CUDA headers keeps tool tests fast and
# independent of the toolkit; tests marked REQUIRES: cuda use the real one.
stub = "-nocudainc -nocudalib -isystem " + os.path.join(inputs, "cuda")
config.substitutions.append(("%tawa-rewrite", config.tawa_rewrite))
config.substitutions.append(("%cuda-stub", stub))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%src_root", config.tawa_src_root))
config.substitutions.append(("%python", sys.executable))

# clang-apply-replacements applies the YAML of --export-fixes.
car = shutil.which("clang-apply-replacements-22") or shutil.which(
    "clang-apply-replacements", path=config.llvm_tools_dir)
if car:
    config.available_features.add("clang-apply-replacements")
    config.substitutions.append(("%clang-apply-replacements", car))

# clang-tidy-22 with the tawa-* checks of tidy/ (scripts/setup.sh installs
# clang-tidy-22). %tidy-flags are the flags the tool would add itself.
tidy = shutil.which("clang-tidy-22") or shutil.which(
    "clang-tidy", path=config.llvm_tools_dir)
if tidy and os.path.exists(config.tawa_tidy_module):
    config.available_features.add("clang-tidy")
    config.substitutions.append(
        ("%clang-tidy-tawa", "%s --load=%s" % (tidy, config.tawa_tidy_module)))
    config.substitutions.append(("%tidy-module", config.tawa_tidy_module))
config.substitutions.append((
    "%tidy-flags", "--cuda-host-only %s -isystem %s" % (
        stub, os.path.join(config.tawa_src_root, "include"))))

# The CMake package (test/cmake/): cmake --install of this build, then a
# sample project configured against it with Ninja or Make and nvcc.
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%tawa-build", config.tawa_obj_root))
config.substitutions.append(("%cpack", config.cpack_command))
if shutil.which("dpkg-deb"):
    config.available_features.add("dpkg-deb")
for tool in ["ninja", "make"]:
    if shutil.which(tool):
        config.available_features.add(tool)
# A GPU to run what the tests build (none in CI).
if shutil.which("nvidia-smi") and lit.util.executeCommand(
        ["nvidia-smi", "-L"])[2] == 0:
    config.available_features.add("gpu")

# The compile and SASS checks of test/nvcc are what CI can prove of the
# emitted kernels without a GPU: a machine without nvcc or cuobjdump fails
# the run instead of skipping them, unless TAWA_ALLOW_NO_NVCC=1 says so.
allow_no_nvcc = os.environ.get("TAWA_ALLOW_NO_NVCC") == "1"
nvcc = os.path.join(config.cuda_path, "bin", "nvcc")
if not os.path.exists(nvcc) and not allow_no_nvcc:
    lit_config.fatal("no nvcc at %s: the sm_90a compile checks need it "
                     "(scripts/setup.sh; TAWA_ALLOW_NO_NVCC=1 skips them)"
                     % nvcc)
if os.path.exists(nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append((
        "%nvcc-sm90a",
        "%s -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I%s/include"
        % (nvcc, config.tawa_src_root)))
    config.substitutions.append(("%nvcc", nvcc))  # after %nvcc-sm90a

# The CUB headers of the toolkit: the corpus of test/corpus.
for cccl in [os.path.join(config.cuda_path, "include", "cccl"),
             os.path.join(config.cuda_path, "targets", "x86_64-linux",
                          "include", "cccl")]:
    if os.path.isdir(os.path.join(cccl, "cub")):
        config.available_features.add("cccl")
        config.substitutions.append(("%cccl", cccl))
        break
config.substitutions.append(
    ("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))

# cuobjdump/nvdisasm: from the toolkit, or from scripts/setup.sh (.tools/).
tools = os.path.join(config.tawa_src_root, ".tools", "cuda", "bin")
cuobjdump = shutil.which("cuobjdump", path=os.pathsep.join(
    [os.path.join(config.cuda_path, "bin"), tools]))
if not cuobjdump and not allow_no_nvcc:
    lit_config.fatal("no cuobjdump in %s or %s: the SASS checks need it "
                     "(scripts/setup.sh fetches it; TAWA_ALLOW_NO_NVCC=1 "
                     "skips them)" % (os.path.join(config.cuda_path, "bin"),
                                      tools))
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.environment["NVDISASM_PATH"] = os.path.dirname(cuobjdump)
    config.substitutions.append(("%cuobjdump", cuobjdump))
