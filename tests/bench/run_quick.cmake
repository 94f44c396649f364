# ctest driver: roofline-bench --quick on the CPU with two threads must verify every kernel and
# write JSON and CSV that follow the documented schema.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${BENCH} --quick --backend cpu --threads 2 --json ${OUT}/quick.json --csv ${OUT}/quick.csv
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "roofline-bench --quick exited with ${rc}")
endif()
execute_process(COMMAND ${CHECKER} ${OUT}/quick.json ${OUT}/quick.csv RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the JSON or CSV does not follow the schema")
endif()
