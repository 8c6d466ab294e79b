/*
 * A stand-in for Windows' bcryptprimitives.dll, for running the Windows
 * wheel's binary under wine in tests/python/test_wheels.py only.
 *
 * Every Go program since Go 1.22 calls ProcessPrng from bcryptprimitives.dll
 * at start-up; wine before 9 does not ship that DLL, so Debian bookworm's
 * wine 8 stops a Go binary with "bcryptprimitives.dll not found". This DLL
 * exports ProcessPrng on top of RtlGenRandom (advapi32's SystemFunction036).
 * The test builds it with mingw-w64 into its private wine prefix.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
