# Run EXE with ARGS and compare its stdout with the file GOLDEN.
# cmake -DEXE=... -DARGS=... -DGOLDEN=... -P compare.cmake
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${EXE} ${args} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} ${ARGS} exited with ${rc}")
endif()
file(READ ${GOLDEN} want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "output of ${EXE} ${ARGS} differs from ${GOLDEN}:\n${out}")
endif()
