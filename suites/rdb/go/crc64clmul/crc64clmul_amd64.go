package crc64clmul

// Available: the CPU has PCLMULQDQ (CPUID leaf 1, ECX bit 1), so Fold runs the assembly. Every amd64 CPU
// has SSE2, the rest of what the assembly uses.
var Available = hasPCLMULQDQ()

func hasPCLMULQDQ() bool {
	_, _, ecx, _ := cpuid(1, 0)
	return ecx&(1<<1) != 0
}

// cpuid executes CPUID with EAX=leaf, ECX=sub (crc64clmul_amd64.s): internal/cpu is not importable
// outside the standard library, and golang.org/x/sys/cpu would be this module's only dependency.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// foldAsm is Fold in crc64clmul_amd64.s, given the constants: len(p) a multiple of 16, at least 64.
//
//go:noescape
func foldAsm(crc uint64, p []byte, k4, k1 *[2]uint64) (lo, hi uint64)

func fold(crc uint64, p []byte) (lo, hi uint64) {
	if Available {
		return foldAsm(crc, p, &fold4, &fold1)
	}
	return FoldGo(crc, p)
}
