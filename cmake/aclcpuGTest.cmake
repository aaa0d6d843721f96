# aclcpu_gtest(<target>
#              [PREFIX <test name prefix>] [FILTER <gtest filter>] [NAME <list name>]
#              [ENVIRONMENT <VAR=value>...] [ENVIRONMENT_MODIFICATION <VAR=op:value>...]
#              [LABELS <label>...] [TIMEOUT <s>] [WHOLE_BINARY_OK [SHARDS <n>]])
#
# Registers a GoogleTest binary with CTest, one of two ways:
#   - by default, one CTest entry per test case (gtest_discover_tests): every case
#     runs in its own process, so process-wide state (ACLCPU_SOC and
#     ACLCPU_NUM_THREADS read once, aclnnFinalize) never leaks between cases, and
#     ctest -j spreads the cases over the cores;
#   - with -DACLCPU_TESTS_WHOLE_BINARIES=ON and WHOLE_BINARY_OK, one entry that runs
#     the binary's (filtered) cases in one process. The sanitizer stage uses it for
#     suites whose cases are independent (the kernel unit tests...): under ASan a
#     process start costs far more than most of these cases do. SHARDS n makes it
#     n entries instead (GoogleTest's GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX), so a
#     big suite still spreads over the cores.
#
# Properties are set on the discovered tests by a file that runs after discovery,
# not through gtest_discover_tests(PROPERTIES): that option splits a ';'-list
# value (two ENVIRONMENT_MODIFICATION entries) into separate arguments and keeps
# only the first entry.
include_guard(GLOBAL)
include(GoogleTest)

option(ACLCPU_TESTS_WHOLE_BINARIES "Register suites marked WHOLE_BINARY_OK as one CTest entry each" OFF)

# The PROPERTIES arguments of set_tests_properties for the parsed arguments in
# the caller's scope (arg_ENVIRONMENT...), with `extra_modification` appended to
# ENVIRONMENT_MODIFICATION; each list stays one quoted value.
function(_aclcpu_gtest_properties out_variable extra_modification)
  set(arg_ENVIRONMENT_MODIFICATION ${arg_ENVIRONMENT_MODIFICATION} ${extra_modification})
  set(properties "")
  foreach(property ENVIRONMENT ENVIRONMENT_MODIFICATION LABELS TIMEOUT)
    if(arg_${property})
      list(JOIN arg_${property} ";" joined)
      string(APPEND properties " ${property} \"${joined}\"")
    endif()
  endforeach()
  set(${out_variable} "${properties}" PARENT_SCOPE)
endfunction()

function(aclcpu_gtest target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "WHOLE_BINARY_OK" "PREFIX;FILTER;NAME;TIMEOUT;SHARDS"
                        "ENVIRONMENT;ENVIRONMENT_MODIFICATION;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aclcpu_gtest(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME)
    set(arg_NAME "${target}")
  endif()

  if(ACLCPU_TESTS_WHOLE_BINARIES AND arg_WHOLE_BINARY_OK)
    set(command ${target} --gtest_brief=1)
    if(arg_FILTER)
      list(APPEND command "--gtest_filter=${arg_FILTER}")
    endif()
    if(NOT arg_SHARDS)
      set(arg_SHARDS 1)
    endif()
    math(EXPR last_shard "${arg_SHARDS} - 1")
    foreach(shard RANGE ${last_shard})
      set(test_name "${arg_PREFIX}${arg_NAME}.shard${shard}of${arg_SHARDS}")
      add_test(NAME "${test_name}" COMMAND ${command})
      set(shard_environment "")
      if(arg_SHARDS GREATER 1)
        set(shard_environment "GTEST_TOTAL_SHARDS=set:${arg_SHARDS}" "GTEST_SHARD_INDEX=set:${shard}")
      endif()
      _aclcpu_gtest_properties(properties "${shard_environment}")
      if(properties)
        cmake_language(EVAL CODE "set_tests_properties(\"${test_name}\" PROPERTIES ${properties})")
      endif()
    endforeach()
    return()
  endif()

  set(list_variable "aclcpu_gtest_list_${arg_NAME}")
  set(discover_args TEST_PREFIX "${arg_PREFIX}" TEST_LIST "${list_variable}" DISCOVERY_TIMEOUT 60)
  if(arg_FILTER)
    list(APPEND discover_args TEST_FILTER "${arg_FILTER}")
  endif()
  gtest_discover_tests(${target} ${discover_args})
  _aclcpu_gtest_properties(properties "")
  if(properties)
    # Runs at ctest time after gtest_discover_tests' own include file (the
    # directory's TEST_INCLUDE_FILES are read in order), when the list of
    # discovered names is known.
    set(file "${CMAKE_CURRENT_BINARY_DIR}/${list_variable}_properties.cmake")
    file(WRITE "${file}"
         "if(${list_variable})\n  set_tests_properties(\${${list_variable}} PROPERTIES ${properties})\nendif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
  endif()
endfunction()
