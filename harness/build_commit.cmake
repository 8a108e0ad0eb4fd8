# Writes OUT, `#define TUJIT_COMMIT "…"`: the commit of the checkout at SOURCE_DIR
# (`git describe --always --dirty`), "unknown" when SOURCE_DIR is not the top of a git checkout
# (a source tarball, or tujit's tree inside another repository). Run at every build; the file is
# rewritten only when the text changes, so an unchanged commit rebuilds nothing.
set(commit unknown)
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc
                  ERROR_QUIET)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
                    OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc
                    ERROR_QUIET)
    if(rc EQUAL 0 AND NOT described STREQUAL "")
      set(commit ${described})
    endif()
  endif()
endif()
set(text "#define TUJIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
