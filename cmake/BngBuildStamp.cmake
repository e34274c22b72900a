# bng_build_stamp(<name> <header>): a target <name> that, at every build,
# writes <header> (#defines BNG_STAMP_*: version, git commit and dirty flag,
# C++ compiler and flags, build type; cmake/build_stamp.cmake). Both the
# libraries (their build record, optimized/build_record.cpp) and bngcert
# (its own build) are stamped by it.
function(bng_build_stamp name header)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  get_directory_property(options DIRECTORY ${PROJECT_SOURCE_DIR} COMPILE_OPTIONS)
  list(FILTER options EXCLUDE REGEX "^\\$<")  # plain flags; drop generator expressions
  list(JOIN options " " options)
  add_custom_target(${name}
    COMMAND ${CMAKE_COMMAND}
            -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DOUT=${header}
            -DVERSION=${PROJECT_VERSION}
            "-DCOMPILER=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}"
            "-DFLAGS=${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} ${options}"
            -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
            -P ${PROJECT_SOURCE_DIR}/cmake/build_stamp.cmake
    BYPRODUCTS ${header}
    COMMENT "Stamping ${name} with the git commit"
    VERBATIM)
endfunction()
