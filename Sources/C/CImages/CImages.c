#include "CImages.h"
#include <dlfcn.h>

const FolioImagesAPI *folio_images_load(const char *path, const char **problem) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) { *problem = dlerror(); return NULL; }
    const FolioImagesAPI *(*entry)(void) = (const FolioImagesAPI *(*)(void))dlsym(handle, "folio_images_api");
    if (!entry) { *problem = "has no folio_images_api"; return NULL; }
    const FolioImagesAPI *api = entry();
    if (!api || api->version != FOLIO_IMAGES_API_VERSION) { *problem = "is of another version"; return NULL; }
    return api;
}
