package corerpc

// The client's waits the adapters' TypeScript client (adapters/core) must
// wait as long; mcpserver.adapterConstants generates them into
// adapters/core/src/tools.generated.ts. Exported here, beside client.go,
// so that the values stay defined once, there.
const (
	// FarewellWait is farewellWait: how long a failed write waits for the
	// host's farewell.
	FarewellWait = farewellWait
	// ConfirmWait is confirmWait: the bound on storing and confirming one
	// issued capability.
	ConfirmWait = confirmWait
)
