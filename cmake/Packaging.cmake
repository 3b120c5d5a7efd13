# CPack: `cpack -G DEB` in the build directory makes tawa-rewrite_<version>_
# <arch>.deb, which installs under /usr on Debian 12 and depends on the
# LLVM 22 packages it was built against (Debian's bookworm-security suite):
# the shared clang-cpp and LLVM libraries, and the clang resource directory
# (libclang-common-22-dev) whose CUDA wrapper headers every parse includes.
# clang-tidy-22 (for the module) and cmake (for the package) are recommended;
# nvcc is the user's. scripts/test-deb.sh installs the .deb in a clean
# Debian 12 chroot and runs it there.
set(CPACK_PACKAGE_NAME tawa-rewrite)
set(CPACK_PACKAGE_VENDOR "tawa-rewrite")
set(TAWA_PACKAGE_CONTACT "tawa-rewrite maintainers <maintainers@tawa-rewrite.invalid>"
    CACHE STRING "Maintainer field of the .deb")
set(CPACK_PACKAGE_CONTACT "${TAWA_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Rewrites '#pragma tawa tile' CUDA kernels into warp-specialized Hopper kernels")
set(CPACK_PACKAGE_DESCRIPTION
    "tawa-rewrite is a Clang source-to-source tool: it reads CUDA kernels whose main loop carries
'#pragma tawa tile' and rewrites them into warp-specialized sm_90a kernels (TMA producer,
wgmma consumers, mbarrier rings). The package holds the tool, the tile-language and runtime
headers, a clang-tidy module (tawa-* checks) and a CMake package with tawa_rewrite_sources().")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_STRIP_FILES ON)
set(_tawa_llvm "(>= 1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR})")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1, libclang-cpp${LLVM_VERSION_MAJOR} ${_tawa_llvm}, libllvm${LLVM_VERSION_MAJOR} ${_tawa_llvm}, libclang-common-${LLVM_VERSION_MAJOR}-dev ${_tawa_llvm}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-${LLVM_VERSION_MAJOR}, cmake (>= 3.20)")
include(CPack)
