# ctest driver: the schema check must fail on a report that breaks it. Takes the report of
# bench.quick_cpu (which conforms), breaks one rule at a time and expects exit status 1 with the
# rule named on stderr.
# EMULATOR: how a cross-built binary runs here (qemu-aarch64 -L …), empty for a native build.
separate_arguments(EMULATOR)
file(READ ${OUT}/quick.json good)
execute_process(COMMAND ${EMULATOR} ${CHECKER} ${OUT}/quick.json RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the unbroken report does not conform (exit ${rc})")
endif()
set(i 0)
# each: text to find | its replacement | what the checker must say
# (no square brackets: CMake's lists do not split inside them)
foreach(rule IN ITEMS
    "{\"name\":\"L1\"|{\"name\":\"L5\"|levels/0/name: must be one of"
    "{\"name\":\"L1\",\"workingSetBytes\":|{\"name\":\"L1\",\"workingSetBytes\":-|workingSetBytes: must be more than 0"
    "{\"name\":\"L1\"|{\"name\":\"L2\"|levels in order"
    "\"allVerified\": true|\"allVerified\": false|/allVerified: must be true"
    "\"backend\": \"cpu\"|\"backend\": \"tpu\"|/backend: must be one of"
    "\"repetitions\":|\"repetitions\":0.5,\"x\":|repetitions: must be integer"
    "\"readCeiling\":{|\"readCeilingRenamed\":{|readCeiling present"
    "\"neighbour\":\"dot\"|\"neighbour\":\"triad\"|neighbour is the read-only dot"
    "\"met\":true|\"met\":false|met = value"
    "\"levelSweep\":|\"levelSweepRenamed\":|levelSweep present")
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 from)
  list(GET parts 1 to)
  list(GET parts 2 says)
  string(FIND "${good}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the quick report has no '${from}' to break")
  endif()
  string(SUBSTRING "${good}" 0 ${at} head)
  string(LENGTH "${from}" len)
  math(EXPR tail_at "${at} + ${len}")
  string(SUBSTRING "${good}" ${tail_at} -1 tail)
  file(WRITE ${OUT}/broken-${i}.json "${head}${to}${tail}")
  execute_process(COMMAND ${EMULATOR} ${CHECKER} ${OUT}/broken-${i}.json RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "broken report ${i} ('${from}' → '${to}'): exit ${rc}, expected 1")
  endif()
  string(FIND "${err}" "${says}" named)
  if(named EQUAL -1)
    message(FATAL_ERROR "broken report ${i}: the checker did not say '${says}':\n${err}")
  endif()
  math(EXPR i "${i} + 1")
endforeach()
message("${i} broken reports rejected")
