/*
 * replay.c - run a fuzz target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer: the CTest regression run of the crash-free corpora.
 *
 * Usage: fuzz_replay_<format> PATH...   (a folder: every file in it, in
 * name order; hidden files skipped). Exits non-zero when no input was
 * found, so a corpus that goes missing fails the test instead of passing
 * vacuously. A crash aborts the process, which fails the test too.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 0;
    }
    size_t cap = 1 << 16, n = 0, k;
    uint8_t *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return 0;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 1;
}

static int skip_hidden(const struct dirent *e) { return e->d_name[0] != '.'; }

int main(int argc, char **argv)
{
    long count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "replay: %s: not found\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(sb.st_mode)) {
            count += replay_file(argv[i]);
            continue;
        }
        struct dirent **names = NULL;
        int n = scandir(argv[i], &names, skip_hidden, alphasort);
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
                count += replay_file(path);
            free(names[k]);
        }
        free(names);
    }
    printf("replay: %ld inputs ran without a crash\n", count);
    return count > 0 ? 0 : 1;
}
