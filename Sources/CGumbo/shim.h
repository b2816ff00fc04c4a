#ifndef SCREENPLAY_CGUMBO_SHIM_H
#define SCREENPLAY_CGUMBO_SHIM_H
#include <gumbo.h>
#endif
