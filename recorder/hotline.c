/* The process's hot line (hotline.h). */
#include "hotline.h"

_Alignas(4096) struct rec_hotline rec_hotline;
