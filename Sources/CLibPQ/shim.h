#ifndef SCREENPLAY_CLIBPQ_SHIM_H
#define SCREENPLAY_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
