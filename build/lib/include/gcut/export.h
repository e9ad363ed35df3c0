
#ifndef GCUT_EXPORT_H
#define GCUT_EXPORT_H

#ifdef GCUT_STATIC_DEFINE
#  define GCUT_EXPORT
#  define GCUT_NO_EXPORT
#else
#  ifndef GCUT_EXPORT
#    ifdef gcut_EXPORTS
        /* We are building this library */
#      define GCUT_EXPORT __attribute__((visibility("default")))
#    else
        /* We are using this library */
#      define GCUT_EXPORT __attribute__((visibility("default")))
#    endif
#  endif

#  ifndef GCUT_NO_EXPORT
#    define GCUT_NO_EXPORT __attribute__((visibility("hidden")))
#  endif
#endif

#ifndef GCUT_DEPRECATED
#  define GCUT_DEPRECATED __attribute__ ((__deprecated__))
#endif

#ifndef GCUT_DEPRECATED_EXPORT
#  define GCUT_DEPRECATED_EXPORT GCUT_EXPORT GCUT_DEPRECATED
#endif

#ifndef GCUT_DEPRECATED_NO_EXPORT
#  define GCUT_DEPRECATED_NO_EXPORT GCUT_NO_EXPORT GCUT_DEPRECATED
#endif

#if 0 /* DEFINE_NO_DEPRECATED */
#  ifndef GCUT_NO_DEPRECATED
#    define GCUT_NO_DEPRECATED
#  endif
#endif

#endif /* GCUT_EXPORT_H */
