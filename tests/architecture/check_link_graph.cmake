# Checks architecture.md's "Dependencies point one way" on the real link graph: configures
# the tree into a scratch folder with --graphviz and walks the edges.
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -P check_link_graph.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}" -G Ninja -DIOMARK_BUILD_TESTS=OFF
          "--graphviz=${WORK_DIR}/graph/iomark.dot"
  RESULT_VARIABLE configured OUTPUT_QUIET ERROR_VARIABLE configure_errors)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring for the link graph failed:\n${configure_errors}")
endif()
file(STRINGS "${WORK_DIR}/graph/iomark.dot" lines)

# node id -> target name, and id -> ids it links directly.
foreach(line IN LISTS lines)
  if(line MATCHES "^[ \t]*\"(node[0-9]+)\" \\[ label = \"([^\"\\]+)")
    set(name_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    set(id_of_${CMAKE_MATCH_2} "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^[ \t]*\"(node[0-9]+)\" -> \"(node[0-9]+)\"")
    list(APPEND edges_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endif()
endforeach()

# Every target name `target` reaches through link edges, itself excluded.
function(reachable target out)
  set(seen "")
  set(queue "${id_of_${target}}")
  if(NOT queue)
    message(FATAL_ERROR "target ${target} is not in the link graph")
  endif()
  while(queue)
    list(POP_FRONT queue id)
    foreach(next IN LISTS edges_${id})
      if(NOT next IN_LIST seen)
        list(APPEND seen "${next}")
        list(APPEND queue "${next}")
      endif()
    endforeach()
  endwhile()
  set(names "")
  foreach(id IN LISTS seen)
    list(APPEND names "${name_${id}}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

set(violations "")
# forbid(TARGET REGEX WHY): TARGET must not reach a target whose name matches REGEX.
function(forbid target regex why)
  reachable(${target} names)
  foreach(name IN LISTS names)
    if(name MATCHES "${regex}" AND NOT name STREQUAL "iomark_warnings")
      string(APPEND violations "\n  ${target} -> ${name}: ${why}")
    endif()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

forbid(iomark_common "^iomark_" "common is the bottom layer")
forbid(iomark_access_specs "^iomark_(icf|results|protocol|transport|agent|engine|targets|workload|controller)"
       "access-specs depends on common only")
forbid(iomark_icf "^iomark_(results|protocol|transport|agent|engine|targets|workload|controller)"
       ".icf reading is text in, model out")
forbid(iomark_results "^iomark_(protocol|transport|agent|engine|targets|workload|controller)"
       "results know nothing of the wire or the agent")
forbid(iomark_report "^iomark_(protocol|transport|agent|engine|targets|workload|controller)"
       "reports are drawn from results alone")
forbid(iomark_protocol "^iomark_(transport|agent|engine|targets|workload|controller)" "the wire sits below both ends")
forbid(iomark_legacy "^iomark_(icf|results|protocol|transport|agent|engine|targets|workload|controller)"
       "the legacy codec is IOmeter's byte images <-> the model, nothing more")
forbid(iomark_network "^iomark_(agent_core|engine|targets|controller|transport|results)"
       "network workers are sockets and rules: no disk engine, no controller, no sessions")
forbid(iomark_controller_core "^iomark_(agent_core|engine|targets|workload|network)"
       "the controller core drives agents only through the protocol")
forbid(iomark-agent "^(Qt6?::|iomark_controller|iomark_gui)" "load-generator hosts are headless")
forbid(iomark_agent_core "^iomark_controller" "the agent never depends on the controller")
forbid(iomark_run_options "^iomark_(agent_core|workload|targets|transport|protocol|controller|gui)"
       "the option table is declarations: both front ends and the agent use it, it uses neither")
forbid(iomark_controller_core "^iomark_(history|metrics|cli_text|series_outputs|legacy|dynamo_adapter)"
       "the core runs series over protocol::Connection; what they are recorded in or printed as, and the Dynamo wire, live above it")
forbid(iomark_gui "^iomark_cli_text" "the CLI's text is the CLI's")
forbid(iomark_run_builder "^iomark_(agent_core|engine|targets|workload|network|transport|controller|gui|run_options)"
       "the run builder makes protocol assignments: the controller and run-local both use it, it uses neither")
forbid(iomark_steady_state "^iomark_(access_specs|icf|results|protocol|transport|legacy|agent|engine|targets|workload|network|controller|run)"
       "the steady-state rule is arithmetic on figures: it knows nothing of where they come from")
forbid(iomark_latency_search "^iomark_(access_specs|icf|results|protocol|transport|legacy|agent|engine|targets|workload|network|controller|run)"
       "the max-IOPS search picks the next run from figures: it knows nothing of how runs are made")

# No Qt below the GUI: only the iomark_gui* libraries and iomark-gui may reach Qt. No logging
# in any library.
get_cmake_property(variables VARIABLES)
foreach(variable IN LISTS variables)
  if(variable MATCHES "^id_of_(iomark.*)$")
    set(target "${CMAKE_MATCH_1}")
    if(NOT target MATCHES "gui")
      forbid(${target} "^Qt6?::" "no Qt below the GUI")
    endif()
    # Libraries return errors as values and report events through observers: only the
    # programs log (spdlog), take signals and talk to systemd, through app_runtime.
    if(target MATCHES "^iomark_" AND NOT target STREQUAL "iomark_app_runtime")
      forbid(${target} "^(iomark_app_runtime|spdlog)" "libraries do not log; the programs do")
    endif()
  endif()
endforeach()

# Generated protobuf types appear only inside protocol: nothing else links protobuf itself.
foreach(variable IN LISTS variables)
  if(variable MATCHES "^edges_(node[0-9]+)$")
    set(from "${name_${CMAKE_MATCH_1}}")
    foreach(to IN LISTS ${variable})
      if(name_${to} MATCHES "protobuf" AND NOT from MATCHES "^iomark_protocol")
        string(APPEND violations "\n  ${from} -> ${name_${to}}: protobuf belongs to protocol alone")
      endif()
    endforeach()
  endif()
endforeach()

if(violations)
  message(FATAL_ERROR "link graph breaks architecture.md:${violations}")
endif()
message(STATUS "link graph follows architecture.md")
