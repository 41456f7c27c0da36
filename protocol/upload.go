package protocol

// Uploads (issue 13; spec 000's upload paragraphs). An upload_file step
// names a local file; the host admits only a regular file below one of
// uploads.dlp_allowed_roots and at most uploads.max_bytes, opened without
// following symlinks and compared with what was checked, never hard
// linked, and copies it into STATE/uploads/<random>/<its name> (0700 /
// 0600). The extension sets the copy on the input; a copy that reached the
// page is removed 10 minutes later, one that did not at once, and a
// starting host removes per-upload folders older than 15 minutes.

// Upload error codes (outcome not_started: nothing was staged).
const (
	// CodeUploadDenied: the path is not an admissible file (outside the
	// roots, not a regular file, a symlink, hard linked, swapped while
	// checked, unreadable) or no roots are configured.
	CodeUploadDenied ErrorCode = "upload_denied"
	// CodeUploadTooLarge: the file is over uploads.max_bytes.
	CodeUploadTooLarge ErrorCode = "upload_too_large"
)

// Upload retention (spec 000).
const (
	UploadKeepAfterUseMs = 10 * 60 * 1000
	UploadStaleAtStartMs = 15 * 60 * 1000
)
