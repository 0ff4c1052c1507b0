# Runs the built gpudoctor to write its man page and completions (packaging/CMakeLists.txt):
#   cmake -DGPUDOCTOR=<binary> -DOUT=<folder> -P GenerateShellFiles.cmake
foreach(pair "man;gpudoctor.1" "completions;bash;gpudoctor.bash" "completions;zsh;_gpudoctor"
             "completions;fish;gpudoctor.fish")
  list(POP_BACK pair file)
  execute_process(COMMAND "${GPUDOCTOR}" ${pair} OUTPUT_FILE "${OUT}/${file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpudoctor ${pair} failed (${rc})")
  endif()
endforeach()
