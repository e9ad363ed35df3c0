#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "gcut::gcut" for configuration "Release"
set_property(TARGET gcut::gcut APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(gcut::gcut PROPERTIES
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libgcut.so.0.1.0"
  IMPORTED_SONAME_RELEASE "libgcut.so.0.1"
  )

list(APPEND _cmake_import_check_targets gcut::gcut )
list(APPEND _cmake_import_check_files_for_gcut::gcut "${_IMPORT_PREFIX}/lib/libgcut.so.0.1.0" )

# Import target "gcut::gcut_static" for configuration "Release"
set_property(TARGET gcut::gcut_static APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(gcut::gcut_static PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libgcut.a"
  )

list(APPEND _cmake_import_check_targets gcut::gcut_static )
list(APPEND _cmake_import_check_files_for_gcut::gcut_static "${_IMPORT_PREFIX}/lib/libgcut.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
