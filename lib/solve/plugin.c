/*
 * plugin.c - loading plugins (docs/design.md section 3, gcut/plugin.h).
 *
 * Called once, by the registry, the first time something past the built-in
 * back ends is asked for. Looks at every libgcut_*.so named in
 * $GCUT_PLUGIN_PATH (files or folders, colon-separated) when it is set, and
 * then nowhere else; otherwise at libgcut_cuda.so beside libgcut (or the
 * program), in ../lib beside the program's bin/, and in the install libdir. A plugin exports one symbol,
 * gcut_plugin_entry, which hands back one descriptor; a plugin that is
 * absent, fails to load or speaks another plugin ABI is never fatal: the
 * reason becomes that of the stand-ins of the back ends it should have
 * provided.
 */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/solve_internal.h"

#define NOTE_MAX 384

static void note(const char *fmt, ...) GCUT_PRINTF(1, 2);
static void note(const char *fmt, ...)
{
    char buf[NOTE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    gcut_i_registry_note(buf);
}

/* Load one plugin file. Returns 1 if it was accepted (it stays loaded). */
static int load_plugin(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *err = dlerror();
        note("plugin %s failed to load: %s", path, err ? err : "unknown error");
        return 0;
    }
    gcut_plugin_entry_fn entry_fn;
    *(void **)&entry_fn = dlsym(h, GCUT_PLUGIN_ENTRY_SYMBOL);
    if (!entry_fn) {
        note("plugin %s has no %s symbol", path, GCUT_PLUGIN_ENTRY_SYMBOL);
        dlclose(h);
        return 0;
    }
    /* The host table starts with the ABI version, and so does the
     * descriptor: a plugin of another version refuses the host (or we
     * refuse its descriptor) before anything else is read. */
    const gcut_plugin_descriptor *d = NULL;
    const gcut_status st = entry_fn(gcut_i_host_api(), &d);
    if (st != GCUT_OK || !d || d->abi_version != GCUT_PLUGIN_ABI_VERSION) {
        if (d && d->abi_version != GCUT_PLUGIN_ABI_VERSION)
            note("plugin %s speaks plugin ABI version %d, this libgcut needs version %d "
                 "(rebuild the plugin with this gcut)",
                 path, (int)d->abi_version, GCUT_PLUGIN_ABI_VERSION);
        else
            note("plugin %s refused this libgcut, which speaks plugin ABI version %d (%s): "
                 "rebuild the plugin with this gcut",
                 path, GCUT_PLUGIN_ABI_VERSION, gcut_status_string(st));
        dlclose(h);
        return 0;
    }
    int added = 0;
    for (int32_t i = 0; d->backends && i < d->num_backends; i++) {
        const gcut_backend *be = d->backends[i];
        if (!be || be->abi_version != GCUT_PLUGIN_ABI_VERSION || !be->name)
            continue;
        gcut_i_registry_add(be);
        added = 1;
    }
    if (!added) {
        note("plugin %s provides no usable back end", path);
        dlclose(h);
        return 0;
    }
    gcut_i_registry_add_matchers(d->matchers, d->num_matchers);
    gcut_i_registry_add_extensions(d->extensions, d->num_extensions);
    return 1;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

static int load_from_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int any = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        size_t len = strlen(nm);
        if (strncmp(nm, "libgcut_", 8) == 0 && len > 3 && strcmp(nm + len - 3, ".so") == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            any |= load_plugin(path);
        }
    }
    closedir(d);
    return any;
}

void gcut_i_plugins_load(void)
{
    int any = 0;
    const char *env = getenv("GCUT_PLUGIN_PATH");
    if (env && *env) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", env);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
            DIR *d = opendir(tok);
            if (d) {
                closedir(d);
                any |= load_from_dir(tok);
            } else if (file_exists(tok)) {
                any |= load_plugin(tok);
            }
        }
    }
    if (env && *env)
        return; /* the user said where the plugins are */
    /* Next to libgcut (or the program, when linked statically), then a
     * lib/ folder beside the program's bin/, then the install libdir. */
    Dl_info info;
    char dir[4096] = ".";
    if (dladdr((void *)&gcut_i_plugins_load, &info) && info.dli_fname) {
        snprintf(dir, sizeof dir, "%s", info.dli_fname);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
    }
    const char *cands[] = {"%s/libgcut_cuda.so", "%s/../lib/libgcut_cuda.so",
                           "%s/../" GCUT_INSTALL_LIBDIR "/libgcut_cuda.so"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0] && !any; i++) {
        char path[4200];
        snprintf(path, sizeof path, cands[i], dir);
        if (file_exists(path))
            any |= load_plugin(path);
    }
}
