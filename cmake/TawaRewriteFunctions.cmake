# tawa_rewrite_sources(TARGET <target> SOURCES <file>...
#                      [OPTIONS <tawa-rewrite option>...]
#                      [HOPPER AUTO|ON|OFF])
#
# Adds CUDA sources with `#pragma tawa tile` kernels to <target>. In a Hopper
# build each one is rewritten at build time into
# ${CMAKE_CURRENT_BINARY_DIR}/tawa-rewrite/<target>/<its path>, by a custom
# command of its own (so rewrites run in parallel like compilations), and
# the target compiles the rewritten file; in any other build the target
# compiles the sources as written (tawa/tile.h's portable code).
#
# The target's property TAWA_REWRITTEN says which (ON or OFF).
#
# A rewrite reruns when its source, a header the source includes (through a
# depfile that the tool writes, --write-depfile) or the tool changes. The
# tool parses each source with the target's include directories, compile
# definitions and CUDA_STANDARD, and with the toolkit of the CUDA compiler.
#
#   TARGET   a target created in the calling directory, with CUDA enabled
#   SOURCES  .cu files, relative to the calling directory or absolute
#   OPTIONS  more options of tawa-rewrite, e.g. --werror (docs/cli.md)
#   HOPPER   AUTO (default): a Hopper build is one whose CUDA_ARCHITECTURES
#            are all 90a (90a, 90a-real, 90a-virtual); a mix of 90a and other
#            architectures compiles the sources as written, with a warning
#            (the rewritten kernels run on sm_90a only). ON or OFF decides.
#
# docs/cmake.md has an example.
include_guard(GLOBAL)

function(tawa_rewrite_sources)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;HOPPER" "SOURCES;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tawa_rewrite_sources: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET OR NOT TARGET "${ARG_TARGET}")
    message(FATAL_ERROR "tawa_rewrite_sources: TARGET '${ARG_TARGET}' is not a target")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "tawa_rewrite_sources(${ARG_TARGET}): no SOURCES")
  endif()
  if(NOT TARGET TawaRewrite::tawa-rewrite)
    message(FATAL_ERROR "tawa_rewrite_sources: no TawaRewrite::tawa-rewrite; "
                        "find_package(TawaRewrite) or add_subdirectory() it first")
  endif()
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "tawa_rewrite_sources(${ARG_TARGET}): enable the CUDA "
                        "language first (project(... LANGUAGES CUDA) or enable_language(CUDA))")
  endif()
  if(NOT ARG_HOPPER)
    set(ARG_HOPPER AUTO)
  endif()
  target_link_libraries(${ARG_TARGET} PRIVATE TawaRewrite::headers)

  # Hopper or not, from the target's CUDA_ARCHITECTURES.
  get_target_property(_archs ${ARG_TARGET} CUDA_ARCHITECTURES)
  if(NOT _archs)
    set(_archs "")
  endif()
  set(_hopper 0)
  set(_other 0)
  foreach(_arch IN LISTS _archs)
    string(REGEX REPLACE "-(real|virtual)$" "" _arch "${_arch}")
    if(_arch STREQUAL "90a")
      math(EXPR _hopper "${_hopper} + 1")
    else()
      math(EXPR _other "${_other} + 1")
    endif()
  endforeach()
  if(ARG_HOPPER STREQUAL "AUTO")
    set(_rewrite OFF)
    if(_hopper GREATER 0 AND _other EQUAL 0)
      set(_rewrite ON)
    elseif(_hopper GREATER 0)
      message(WARNING "tawa_rewrite_sources(${ARG_TARGET}): CUDA_ARCHITECTURES "
                      "'${_archs}' mixes 90a with other architectures; the rewritten "
                      "kernels run on sm_90a only, so the sources are compiled as "
                      "written (HOPPER ON forces the rewrite)")
    endif()
  elseif(ARG_HOPPER)
    set(_rewrite ON)
  else()
    set(_rewrite OFF)
  endif()

  # For the project to know which it got (e.g. to run on sm_90a only).
  set_property(TARGET ${ARG_TARGET} PROPERTY TAWA_REWRITTEN ${_rewrite})
  if(NOT _rewrite)
    message(STATUS "tawa_rewrite_sources(${ARG_TARGET}): CUDA_ARCHITECTURES "
                   "'${_archs}': compiling the sources as written")
    target_sources(${ARG_TARGET} PRIVATE ${ARG_SOURCES})
    return()
  endif()
  message(STATUS "tawa_rewrite_sources(${ARG_TARGET}): CUDA_ARCHITECTURES "
                 "'${_archs}': compiling the rewritten sources")

  # What the tool parses with: the target's usage requirements, its standard
  # and the toolkit of the CUDA compiler.
  # (Each generator expression is quoted where it is used: its ';' must
  # reach COMMAND_EXPAND_LISTS, not split the command's argument list.)
  set(_inc "$<TARGET_PROPERTY:${ARG_TARGET},INCLUDE_DIRECTORIES>")
  set(_def "$<TARGET_PROPERTY:${ARG_TARGET},COMPILE_DEFINITIONS>")
  set(_std "$<TARGET_PROPERTY:${ARG_TARGET},CUDA_STANDARD>")
  set(_options ${ARG_OPTIONS})
  if(NOT "${_options}" MATCHES "--cuda-path")
    if(CMAKE_CUDA_COMPILER_TOOLKIT_ROOT)
      list(APPEND _options "--cuda-path=${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}")
    endif()
  endif()
  set(_tool "$<TARGET_FILE:TawaRewrite::tawa-rewrite>")
  set(_tool_dep "${_tool}")
  get_target_property(_imported TawaRewrite::tawa-rewrite IMPORTED)
  if(NOT _imported)
    list(APPEND _tool_dep TawaRewrite::tawa-rewrite) # built in this build
  endif()

  foreach(_src IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH _src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               NORMALIZE OUTPUT_VARIABLE _abs)
    cmake_path(RELATIVE_PATH _abs BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               OUTPUT_VARIABLE _rel)
    if(_rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${_rel}")
      cmake_path(GET _abs FILENAME _rel)
    endif()
    cmake_path(GET _abs PARENT_PATH _dir)
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/tawa-rewrite/${ARG_TARGET}/${_rel}")
    add_custom_command(
      OUTPUT "${_out}"
      COMMAND "${_tool}" "${_abs}" -o "${_out}" --write-depfile "${_out}.d"
              --quiet ${_options} --
              "$<$<BOOL:${_inc}>:-I$<JOIN:${_inc},;-I>>"
              "$<$<BOOL:${_def}>:-D$<JOIN:${_def},;-D>>"
              "$<$<BOOL:${_std}>:-std=c++${_std}>"
      DEPENDS "${_abs}" ${_tool_dep}
      DEPFILE "${_out}.d"
      COMMENT "Rewriting ${_rel} for sm_90a (tawa-rewrite)"
      COMMAND_EXPAND_LISTS VERBATIM)
    # The rewritten file keeps the original's #include "..." working.
    set_source_files_properties("${_out}" PROPERTIES
      LANGUAGE CUDA INCLUDE_DIRECTORIES "${_dir}")
    target_sources(${ARG_TARGET} PRIVATE "${_out}")
  endforeach()
endfunction()
