package chromium

// Family is one Chromium-family browser AgentTab knows, with the names its
// executable has on PATH and inside its macOS app bundle.
type Family struct {
	// Name is the short name users pass to `agenttab install --browser`.
	Name string
	// Binaries are executable names looked up on PATH, best first.
	Binaries []string
	// MacApp is the executable inside /Applications on macOS.
	MacApp string
}

// families lists the browsers in preference order. Chromium comes first
// because branded Google Chrome 137+ ignores --load-extension
// (notes/chromium.md; https://chromium.googlesource.com/chromium/src/+/main/docs/extensions/load-extension.md),
// so only Chromium can load the unpacked extension without a person
// clicking "Load unpacked". Edge and Brave follow Chrome as the rarer
// choices.
var families = []Family{
	{Name: "chromium", Binaries: []string{"chromium", "chromium-browser"}, MacApp: "/Applications/Chromium.app/Contents/MacOS/Chromium"},
	{Name: "chrome", Binaries: []string{"google-chrome", "google-chrome-stable"}, MacApp: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
	{Name: "edge", Binaries: []string{"microsoft-edge"}, MacApp: "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"},
	{Name: "brave", Binaries: []string{"brave-browser"}, MacApp: "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"},
}

// Families returns the known browsers in preference order. The slice is a
// copy; changing it changes nothing here.
func Families() []Family {
	out := make([]Family, len(families))
	for i, f := range families {
		f.Binaries = append([]string(nil), f.Binaries...)
		out[i] = f
	}
	return out
}

// FamilyByName returns the family called name ("chromium", "chrome", "edge",
// "brave").
func FamilyByName(name string) (Family, bool) {
	for _, f := range Families() {
		if f.Name == name {
			return f, true
		}
	}
	return Family{}, false
}
