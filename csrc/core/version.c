/* SPDX-License-Identifier: MIT
 * version.c - the library's run-time version (bp_version), so that a host can tell
 * which libblockphys it was loaded with, not only which header it was built against.
 */
#include "blockphys.h"

const char *bp_version(void)
{
	return BP_VERSION_STRING;
}
