# ctest driver: roofline-bench --quick on the CPU with two threads must verify every kernel and
# write JSON and CSV that follow the documented schema.
# EMULATOR: how a cross-built binary runs here (qemu-aarch64 -L …), empty for a native build.
separate_arguments(EMULATOR)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${EMULATOR} ${BENCH} --quick --backend cpu --threads 2 --json ${OUT}/quick.json --csv ${OUT}/quick.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE report)
message("${report}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "roofline-bench --quick exited with ${rc}")
endif()
# Rates in the printed table: integer arithmetic in OP/s, floating point in FLOP/s.
foreach(row IN ITEMS "gemv_int8_dp [^\n]* [0-9.]+ [kMGT]?OP/s" "gemv_int4_dp [^\n]* [0-9.]+ [kMGT]?OP/s"
                     "gemv_int8  [^\n]* [0-9.]+ [kMGT]?FLOP/s" "peak_fp32 [^\n]* [0-9.]+ [kMGT]?FLOP/s")
  if(NOT report MATCHES "${row}")
    message(FATAL_ERROR "the printed table has no row matching '${row}'")
  endif()
endforeach()
execute_process(COMMAND ${EMULATOR} ${CHECKER} ${OUT}/quick.json ${OUT}/quick.csv RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the JSON or CSV does not follow the schema")
endif()
