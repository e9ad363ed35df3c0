# cmake -DDOC=page.md -DSRC=example.c -P doc_example.cmake
# Fails unless the C block of DOC between "<!-- example: NAME -->" and
# "<!-- end example -->" is exactly the file SRC (docs stay true to the
# example CTest builds and runs).
file(READ "${DOC}" doc)
file(READ "${SRC}" src)
get_filename_component(name "${SRC}" NAME)
string(FIND "${doc}" "<!-- example: examples/${name} -->\n```c\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${DOC}: no example block for examples/${name}")
endif()
string(LENGTH "<!-- example: examples/${name} -->\n```c\n" skip)
math(EXPR start "${start} + ${skip}")
string(SUBSTRING "${doc}" ${start} -1 rest)
string(FIND "${rest}" "```\n<!-- end example -->" stop)
if(stop EQUAL -1)
  message(FATAL_ERROR "${DOC}: the example block of examples/${name} does not end")
endif()
string(SUBSTRING "${rest}" 0 ${stop} block)
if(NOT block STREQUAL src)
  message(FATAL_ERROR "${DOC}: the example block differs from examples/${name}: copy the file into it")
endif()
