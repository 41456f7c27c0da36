package extension

// Version is the extension's version: the manifest's "version" (written by
// internal/extbuild) and what the worker announces in its native hello.
// Chrome wants one to four dot-separated integers.
const Version = "0.1.0"
