/* SPDX-License-Identifier: MIT
 * depenetrate.h - moving boxes out of what they overlap (depenetrate.c); the calls
 * themselves are public (blockphys.h).
 */
#ifndef BP_CORE_DEPENETRATE_H
#define BP_CORE_DEPENETRATE_H

#include "bp_world.h"

#endif
