# ctest driver: roofline-bench --prefetch P, for each of the two ways, must verify the GEMVs that
# prefetch (BF16 and the integer-dot ones) and name the way it used in the report's machine facts.
# EMULATOR: how a cross-built binary runs here (qemu-aarch64 -L …), empty for a native build.
separate_arguments(EMULATOR)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
foreach(way IN ITEMS none ahead)
  execute_process(COMMAND ${EMULATOR} ${BENCH} --quick --backend cpu --threads 2 --only gemv_bf16,gemv_int8_dp,gemv_int4_dp
                          --prefetch ${way} --json ${OUT}/${way}.json
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "roofline-bench --prefetch ${way} exited with ${rc}")
  endif()
  file(READ ${OUT}/${way}.json report)
  if(way STREQUAL "none")
    set(name "none \\(hardware only\\)")
  else()
    set(name "2048 B ahead in each stream, into L1")
  endif()
  if(NOT report MATCHES "\"gemvPrefetch\": \"${name} \\(--prefetch\\)\"")
    message(FATAL_ERROR "--prefetch ${way}: the report does not name it as gemvPrefetch")
  endif()
  foreach(kernel IN ITEMS gemv_bf16 gemv_int8_dp gemv_int4_dp)
    if(NOT report MATCHES "\"id\": ?\"${kernel}\"")
      message(FATAL_ERROR "--prefetch ${way}: ${kernel} missing from the report")
    endif()
  endforeach()
endforeach()
