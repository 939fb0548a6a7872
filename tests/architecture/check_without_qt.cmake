# -DIOMARK_GUI=OFF on a host without Qt: the tree, tests included, configures with Qt 6 made
# unfindable, and nothing in its link graph is Qt or the GUI.
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -P check_without_qt.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G Ninja -DIOMARK_GUI=OFF
          -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON "--graphviz=${WORK_DIR}/graph/iomark.dot"
  RESULT_VARIABLE configured OUTPUT_QUIET ERROR_VARIABLE configure_errors)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring with IOMARK_GUI=OFF and no Qt 6 failed:\n${configure_errors}")
endif()
file(STRINGS "${WORK_DIR}/graph/iomark.dot" labels REGEX "label = \"[^\"]+\"")
set(targets "")
foreach(line IN LISTS labels)
  if(line MATCHES "label = \"([^\"\\]+)")
    list(APPEND targets "${CMAKE_MATCH_1}")
  endif()
endforeach()
foreach(wanted iomark iomark-agent icf_tests results_tests controller_tests)
  if(NOT wanted IN_LIST targets)
    message(FATAL_ERROR "IOMARK_GUI=OFF lost the target ${wanted}")
  endif()
endforeach()
set(found "")
foreach(target IN LISTS targets)
  if(target MATCHES "^Qt6?::|^iomark[-_]gui|^gui_")
    list(APPEND found "${target}")
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "IOMARK_GUI=OFF still has Qt or GUI targets: ${found}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
