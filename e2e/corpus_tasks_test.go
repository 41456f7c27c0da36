package e2e

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// corpusTask is one page of e2e/corpus/pages and what an agent is asked
// to do there. run is the scripted agent's way through it, using only the
// default snapshot and the documented tools; want is what the page must
// have posted to /record when it is done (the page's own state, not a
// reading of it).
type corpusTask struct {
	page string // e2e/corpus/pages/<page>.html
	goal string
	run  func(a *scriptedAgent)
	want map[string]any
}

// corpusTasks are the corpus's tasks, in the order they run.
var corpusTasks = []corpusTask{
	{
		page: "autocomplete",
		goal: `type "Par" into the destination, choose "Paris, France" from the suggestions, search`,
		run: func(a *scriptedAgent) {
			a.open("autocomplete")
			a.do(true, asType(a.ref("textbox", "Destination city"), "Par"), asWaitText("Paris, France"))
			suggestion, search := a.ref("", "Paris, France"), a.ref("button", "Search trips")
			a.do(false, asClick(suggestion), asClick(search), asWaitText("Searching trips to Paris, France (CDG)"))
		},
		want: map[string]any{"city": "Paris, France", "airport": "CDG"},
	},
	{
		page: "datepicker",
		goal: "open the departure calendar (May 2026), go to the next month, pick the 17th, book",
		run: func(a *scriptedAgent) {
			a.open("datepicker")
			a.do(true, asClick(a.ref("textbox", "Departure date")), asWaitText("May"))
			a.do(true, asClick(a.ref("", "Next")), asWaitText("June"))
			day, book := a.ref("link", "17"), a.ref("button", "Book crossing")
			a.do(false, asClick(day), asClick(book), asWaitText("Crossing booked for 2026-06-17"))
		},
		want: map[string]any{"depart": "2026-06-17"},
	},
	{
		page: "sortable",
		goal: `drag "Write report" to the top of the jQuery UI sortable list, save`,
		run: func(a *scriptedAgent) {
			a.open("sortable")
			item, first, save := a.ref("", "Write report"), a.ref("", "Pay rent"), a.ref("button", "Save order")
			a.do(false, asDrag(item, first, "before"), asClick(save), asWaitText("Saved: Write report, Pay rent"))
		},
		want: map[string]any{"order": []any{"Write report", "Pay rent", "Buy milk", "Call plumber", "Water plants"}},
	},
	{
		page: "dnd",
		goal: `drag "Bananas" to the top of the HTML5 drag-and-drop list, save`,
		run: func(a *scriptedAgent) {
			a.open("dnd")
			item, first, save := a.ref("", "Bananas"), a.ref("", "Apples"), a.ref("button", "Save list")
			a.do(false, asDrag(item, first, "before"), asClick(save), asWaitText("Saved: Bananas, Apples"))
		},
		want: map[string]any{"order": []any{"Bananas", "Apples", "Bread", "Cheese"}},
	},
	{
		page: "kanban",
		goal: `drag the card "Fix login bug" below "Update docs" in the Done column (SortableJS, pointer events), save`,
		run: func(a *scriptedAgent) {
			a.open("kanban")
			card, below, save := a.ref("", "Fix login bug"), a.ref("", "Update docs"), a.ref("button", "Save board")
			a.do(false, asDrag(card, below, "after"), asClick(save), asWaitText("Saved: done = Set up CI, Update docs, Fix login bug"))
		},
		want: map[string]any{"todo": []any{"Add dark mode"}, "done": []any{"Set up CI", "Update docs", "Fix login bug"}},
	},
	{
		page: "accordion",
		goal: `open the "Payment" panel, choose "Pay by invoice", confirm`,
		run: func(a *scriptedAgent) {
			a.open("accordion")
			a.do(true, asClick(a.ref("tab", "Payment")), asWaitText("Pay by invoice"))
			invoice, confirm := a.ref("radio", "Pay by invoice"), a.ref("button", "Confirm payment method")
			a.do(false, asCheck(invoice), asClick(confirm), asWaitText("Payment method: invoice"))
		},
		want: map[string]any{"method": "invoice"},
	},
	{
		page: "dialog",
		goal: `delete "report-q3.pdf" and confirm in the modal dialog that fades in`,
		run: func(a *scriptedAgent) {
			a.open("dialog")
			a.do(true, asClick(a.ref("button", "Delete report-q3.pdf")), asWaitText("Delete this file?"))
			a.do(false, asClick(a.ref("button", "Delete file")), asWaitText("Deleted report-q3.pdf"))
		},
		want: map[string]any{"deleted": "report-q3.pdf"},
	},
	{
		page: "selectmenu",
		goal: `choose the size "Large" in the jQuery UI selectmenu, add to cart`,
		run: func(a *scriptedAgent) {
			a.open("selectmenu")
			a.do(true, asClick(a.labelled("Size")))
			large, add := a.ref("option", "Large"), a.ref("button", "Add to cart")
			a.do(false, asClick(large), asClick(add), asWaitText("Added a Large tee to the cart"))
		},
		want: map[string]any{"size": "Large"},
	},
	{
		page: "slider",
		goal: "set the volume slider from 2 to 7 (click it, then arrow keys), save",
		run: func(a *scriptedAgent) {
			a.open("slider")
			save := a.ref("button", "Save settings")
			a.do(true, asClick(a.labelled("Volume")))
			level, _ := strconv.Atoi(a.read("the volume", `Current volume: (\d+)`))
			steps := arrowsTo(level, 7, "ArrowRight", "ArrowLeft")
			a.do(false, append(steps, asWaitText("Current volume: 7"), asClick(save), asWaitText("Saved volume 7"))...)
		},
		want: map[string]any{"volume": 7.0},
	},
	{
		page: "spinner",
		goal: "raise the quantity spinner from 1 to 4 with ArrowUp, update the basket",
		run: func(a *scriptedAgent) {
			a.open("spinner")
			quantity, update := a.ref("spinbutton", "Quantity"), a.ref("button", "Update basket")
			steps := append([]agentStep{asClick(quantity)}, arrowsTo(1, 4, "ArrowUp", "ArrowDown")...)
			a.do(false, append(steps, asClick(update), asWaitText("Basket updated: 4"))...)
		},
		want: map[string]any{"quantity": 4.0},
	},
	{
		page: "menu",
		goal: `choose File › Export › "PDF document" in the jQuery UI menu (submenus open on hover)`,
		run: func(a *scriptedAgent) {
			a.open("menu")
			a.do(true, asClick(a.ref("menuitem", "File")), asWaitText("Export"))
			a.do(true, asClick(a.ref("menuitem", "Export")), asWaitText("PDF document"))
			a.do(false, asClick(a.ref("menuitem", "PDF document")), asWaitText("Chose File › Export › PDF document"))
		},
		want: map[string]any{"path": []any{"File", "Export", "PDF document"}},
	},
	{
		page: "react-form",
		goal: "fill the React controlled form (name, email, country, a native date input, a checkbox) and submit",
		run: func(a *scriptedAgent) {
			a.open("react-form")
			name, email, country := a.ref("textbox", "Full name"), a.ref("textbox", "Email"), a.ref("combobox", "Destination country")
			date, tips, submit := a.labelled("Travel date"), a.ref("checkbox", "Send me travel tips"), a.ref("button", "Get my quote")
			a.do(false, asFill(name, "Ada Lovelace"), asFill(email, "ada@example.com"), asSelect(country, "Norway"), asFill(date, "2026-07-14"), asCheck(tips),
				asClick(submit), asWaitText("Thanks Ada Lovelace, your quote for Norway on 2026-07-14"))
		},
		want: map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "country": "Norway", "date": "2026-07-14", "newsletter": true},
	},
	{
		page: "terminal",
		goal: `type "unlock 42" into the xterm.js terminal (keys reach its transparent textarea), press Enter`,
		run: func(a *scriptedAgent) {
			a.open("terminal")
			a.do(false, asType(a.ref("textbox", "Terminal input"), "unlock 42"), asPress("Enter"), asWaitText("Door 42 unlocked"))
		},
		want: map[string]any{"command": "unlock 42"},
	},
	{
		page: "inbox",
		goal: `open the message "Invoice 4471 is overdue" (div rows with click listeners), archive it (a div "button")`,
		run: func(a *scriptedAgent) {
			a.open("inbox")
			// The row's text is the subject among sender and date.
			a.do(true, asClick(a.refContaining("", "Invoice 4471 is overdue")), asWaitText("was due on 1 March"))
			a.do(false, asClick(a.ref("", "Archive")), asWaitText("Archived: Invoice 4471 is overdue"))
		},
		want: map[string]any{"archived": "m2", "subject": "Invoice 4471 is overdue"},
	},
	{
		page: "article",
		goal: "answer the question at the end of a long article from its text, submit",
		run: func(a *scriptedAgent) {
			a.open("article")
			year := a.read("the year the bridge opened", `opened to traffic on \d+ \w+ (\d{4})`)
			answer, submit := a.refContaining("textbox", "Kestrel Bridge open to traffic"), a.ref("button", "Submit answer")
			a.do(false, asFill(answer, year), asClick(submit), asWaitText("Thanks, your answer "+year+" was recorded."))
		},
		want: map[string]any{"answer": "1937"},
	},
}

// arrowsTo are the key presses that take a value from to want.
func arrowsTo(from, want int, up, down string) []agentStep {
	var steps []agentStep
	for ; from < want; from++ {
		steps = append(steps, asPress(up))
	}
	for ; from > want; from-- {
		steps = append(steps, asPress(down))
	}
	return steps
}

// runTask runs one task's script on b and checks what the page posted.
func runTask(b browserTools, base string, rec *pageRecords, task corpusTask) error {
	rec.take("/" + task.page + ".html")
	a := &scriptedAgent{b: b, base: base}
	task.run(a)
	defer b.closePage()
	if a.err != nil {
		if got := rec.take("/" + task.page + ".html"); got != nil {
			return fmt.Errorf("%w\n(the page posted %v)", a.err, got)
		}
		return a.err
	}
	return checkRecord(rec, task)
}

// checkRecord compares what the page posted with the task's want. The
// post is sent when the page shows its result, which the script waited
// for; a short grace covers the request still in flight.
func checkRecord(rec *pageRecords, task corpusTask) error {
	var got map[string]any
	for range 20 {
		if got = rec.take("/" + task.page + ".html"); got != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got == nil {
		return fmt.Errorf("the page posted nothing to /record")
	}
	var diffs []string
	for k, want := range task.want {
		if !reflect.DeepEqual(got[k], want) {
			diffs = append(diffs, fmt.Sprintf("%s = %v, want %v", k, got[k], want))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the page's state is wrong: %s (posted %v)", strings.Join(diffs, "; "), got)
	}
	return nil
}
