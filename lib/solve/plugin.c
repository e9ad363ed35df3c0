/*
 * plugin.c - loading plugins (docs/design.md section 3, gcut/plugin.h).
 *
 * Called once, by the registry, the first time something past the built-in
 * back ends is asked for. Looks at every libgcut_*.so named in
 * $GCUT_PLUGIN_PATH (files or folders, colon-separated) when it is set, and
 * then nowhere else; otherwise at libgcut_cuda.so beside libgcut (or the
 * program), in ../lib beside the program's bin/, and in the install
 * libdir. A plugin exports one symbol, gcut_plugin_entry, which hands back
 * one descriptor; a plugin that is absent, fails to load or speaks another
 * plugin ABI is never fatal: the reason becomes that of the stand-ins of
 * the back ends it should have provided.
 *
 * A candidate is checked before dlopen (gcut_i_plugin_check): a truncated
 * or corrupt shared object can take the process down inside the dynamic
 * loader (SIGBUS on pages past the end of the file), and opening a FIFO
 * blocks forever. Only a readable regular file that is an ELF shared object
 * of this machine, whose size covers what its headers promise, is loaded;
 * anything else is reported, with the reason, and skipped.
 */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

#if defined(__x86_64__)
#define GCUT_ELF_MACHINE EM_X86_64
#define GCUT_ELF_MACHINE_NAME "x86-64"
#elif defined(__aarch64__)
#define GCUT_ELF_MACHINE EM_AARCH64
#define GCUT_ELF_MACHINE_NAME "aarch64"
#endif

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
    if (off > (uint64_t)INT64_MAX)
        return 0;
    size_t done = 0;
    while (done < len) {
        const ssize_t r = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        done += (size_t)r;
    }
    return 1;
}

/* Does a table of count entries of entsize bytes at off end within size?
 * (No overflow: every operand is below 2^32 but off, checked first.) */
static int table_fits(uint64_t off, uint64_t count, uint64_t entsize, uint64_t size)
{
    return off <= size && count * entsize <= size - off;
}

#define CORRUPT(...) (snprintf(why, why_len, __VA_ARGS__), 0)

/* The ELF checks of an open regular file of `size` bytes. */
static int check_elf(int fd, uint64_t size, char *why, size_t why_len)
{
    Elf64_Ehdr eh;
    if (size < EI_NIDENT || !read_at(fd, eh.e_ident, EI_NIDENT, 0) ||
        memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        return size < SELFMAG ? CORRUPT("is truncated or corrupt: %llu bytes, not an ELF file",
                                        (unsigned long long)size)
                              : CORRUPT("is corrupt: not an ELF file");
    if (eh.e_ident[EI_CLASS] != ELFCLASS64)
        return CORRUPT("is not a 64-bit ELF object (class %d)", (int)eh.e_ident[EI_CLASS]);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return CORRUPT("is not a little-endian ELF object");
#else
    if (eh.e_ident[EI_DATA] != ELFDATA2MSB)
        return CORRUPT("is not a big-endian ELF object");
#endif
    if (size < sizeof eh || !read_at(fd, &eh, sizeof eh, 0))
        return CORRUPT("is truncated or corrupt: %llu bytes, shorter than its ELF header",
                       (unsigned long long)size);
    if (eh.e_type != ET_DYN)
        return CORRUPT("is not an ELF shared object (type %d)", (int)eh.e_type);
#ifdef GCUT_ELF_MACHINE
    if (eh.e_machine != GCUT_ELF_MACHINE)
        return CORRUPT("is built for another machine (ELF machine %d, this is %s)",
                       (int)eh.e_machine, GCUT_ELF_MACHINE_NAME);
#endif
    if (eh.e_phnum == 0 || eh.e_phentsize != sizeof(Elf64_Phdr))
        return CORRUPT("is corrupt: %d program headers of %d bytes", (int)eh.e_phnum,
                       (int)eh.e_phentsize);
    if (!table_fits(eh.e_phoff, eh.e_phnum, eh.e_phentsize, size))
        return CORRUPT("is truncated or corrupt: its program headers end past its %llu bytes",
                       (unsigned long long)size);
    if (eh.e_shoff != 0 && !table_fits(eh.e_shoff, eh.e_shnum, eh.e_shentsize, size))
        return CORRUPT("is truncated or corrupt: its section headers end past its %llu bytes",
                       (unsigned long long)size);
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (!read_at(fd, &ph, sizeof ph, eh.e_phoff + (uint64_t)i * sizeof ph))
            return CORRUPT("is truncated or corrupt: cannot read program header %u", i);
        if (ph.p_type == PT_LOAD && !table_fits(ph.p_offset, ph.p_filesz, 1, size))
            return CORRUPT("is truncated or corrupt: segment %u ends at byte %llu, past its "
                           "%llu bytes",
                           i, (unsigned long long)(ph.p_offset + ph.p_filesz),
                           (unsigned long long)size);
    }
    return 1;
}

int gcut_i_plugin_check(const char *path, char *why, size_t why_len)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        const int err = errno;
        if (err == ENOENT && lstat(path, &sb) == 0)
            return CORRUPT("is a broken symbolic link");
        return err == ENOENT ? CORRUPT("not found") : CORRUPT("is unreadable: %s", strerror(err));
    }
    if (!S_ISREG(sb.st_mode))
        return CORRUPT("is not a regular file (%s): skipped",
                       S_ISFIFO(sb.st_mode)                         ? "a FIFO"
                       : S_ISDIR(sb.st_mode)                        ? "a folder"
                       : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
                       : S_ISSOCK(sb.st_mode)                       ? "a socket"
                                                                    : "not a file");
    /* O_NONBLOCK: should it have become a FIFO since, the open does not
     * wait for a writer; fstat then refuses it. */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return CORRUPT("is unreadable: %s", strerror(errno));
    int ok;
    if (fstat(fd, &sb) != 0)
        ok = CORRUPT("is unreadable: %s", strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        ok = CORRUPT("is not a regular file: skipped");
    else
        ok = check_elf(fd, (uint64_t)sb.st_size, why, why_len);
    close(fd);
    return ok;
}

#undef CORRUPT

/* Load one plugin file. Returns 1 if it was accepted (it stays loaded). */
static int load_plugin(const char *path)
{
    char why[256];
    if (!gcut_i_plugin_check(path, why, sizeof why)) {
        note("plugin %s %s", path, why);
        return 0;
    }
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

/* Is there something at path (a broken link counts: it is reported)? */
static int entry_exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
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
            /* stat first: opendir (and fopen) of a FIFO would block. */
            struct stat sb;
            if (stat(tok, &sb) == 0 && S_ISDIR(sb.st_mode))
                any |= load_from_dir(tok);
            else if (entry_exists(tok))
                any |= load_plugin(tok);
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
        if (entry_exists(path))
            any |= load_plugin(path);
    }
}
