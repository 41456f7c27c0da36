import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../testing/fake-chrome";
import { ManualClock } from "../../testing/testkit";
import { NavigationWatch } from "./navigation";

function setup(): { fake: FakeChrome; tab: number; clock: ManualClock } {
  const fake = new FakeChrome();
  fake.autoLoad = false;
  const win = fake.addWindow();
  return { fake, tab: fake.addTab(win, "https://a.test/"), clock: new ManualClock() };
}

test("no navigation within the grace period is none", async () => {
  const { fake, tab, clock } = setup();
  const watch = new NavigationWatch(fake, clock, tab);
  const result = watch.settle(false, 60);
  clock.advance(60);
  assert.equal(await result, undefined);
  watch.stop();
});

// Issue 10: the grace counts from the input's acknowledgement
// (Progress.inputEnded), so the checks after it (the trap's collection)
// do not lengthen it.
test("the grace counts from the end of the input when the step knows it", async () => {
  const { fake, tab, clock } = setup();
  const watch = new NavigationWatch(fake, clock, tab);
  const inputEnded = clock.now();
  clock.advance(40);
  let settled = false;
  const result = watch.settle(false, 60, inputEnded).then((r) => ((settled = true), r));
  clock.advance(19);
  await fake.settle();
  assert.equal(settled, false, "still within 60 ms of the input");
  clock.advance(1);
  assert.equal(await result, undefined);
  // Already past the grace: no wait at all.
  assert.equal(await watch.settle(false, 60, inputEnded), undefined);
  watch.stop();
});

test("a navigation that begins is followed to its commit and DOMContentLoaded", async () => {
  const { fake, tab, clock } = setup();
  const watch = new NavigationWatch(fake, clock, tab);
  await fake.tabs.navigate(tab, "https://a.test/next");
  await fake.settle();
  const result = watch.settle(false, 60);
  fake.finishLoad(tab);
  await fake.settle();
  assert.equal(await result, "committed");
  watch.stop();
});

test("same-document changes, refusals and abandoned navigations", async () => {
  {
    const { fake, tab, clock } = setup();
    const watch = new NavigationWatch(fake, clock, tab);
    fake.navigate(tab, "https://a.test/#x", "fragment");
    await fake.settle();
    assert.equal(await watch.settle(false, 60), "same_document");
    watch.stop();
  }
  {
    const { fake, tab, clock } = setup();
    const watch = new NavigationWatch(fake, clock, tab);
    await fake.tabs.navigate(tab, "https://nowhere.test/");
    fake.failNavigation(tab, "https://nowhere.test/", "net::ERR_NAME_NOT_RESOLVED");
    await fake.settle();
    assert.equal(await watch.settle(true, 0), "refused");
    watch.stop();
  }
  {
    const { fake, tab, clock } = setup();
    const watch = new NavigationWatch(fake, clock, tab);
    await fake.tabs.navigate(tab, "https://a.test/file.zip");
    fake.failNavigation(tab, "https://a.test/file.zip", "net::ERR_ABORTED");
    await fake.settle();
    const result = watch.settle(true, 0);
    await fake.settle();
    clock.advance(500); // no commit replaced it within the grace
    assert.equal(await result, "abandoned");
    watch.stop();
  }
  {
    // An abort followed at once by the commit of the navigation that
    // replaced it (leaving chrome://settings, Chromium 156) is a commit.
    const { fake, tab, clock } = setup();
    const watch = new NavigationWatch(fake, clock, tab);
    await fake.tabs.navigate(tab, "https://a.test/old");
    fake.failNavigation(tab, "https://a.test/old", "net::ERR_ABORTED");
    await fake.tabs.navigate(tab, "https://a.test/next");
    await fake.settle();
    const result = watch.settle(true, 0);
    fake.finishLoad(tab);
    await fake.settle();
    assert.equal(await result, "committed");
    watch.stop();
  }
});

test("an expected navigation that never commits is unknown after 10 s; other frames do not count", async () => {
  const { fake, tab, clock } = setup();
  const watch = new NavigationWatch(fake, clock, tab);
  fake.navigate(tab, "https://frame.test/", "commit", 3);
  await fake.settle();
  const result = watch.settle(true, 0);
  clock.advance(9_999);
  await fake.settle();
  let done = false;
  void result.then(() => (done = true));
  await fake.settle();
  assert.equal(done, false);
  clock.advance(10_000);
  assert.equal(await result, "unknown");
  watch.stop();
});

test("a dialog that holds the navigation ends the wait at once: unknown", async () => {
  const { fake, tab, clock } = setup();
  let open = (): void => undefined;
  const watch = new NavigationWatch(fake, clock, tab, undefined, (opened) => {
    open = opened;
    return () => undefined;
  });
  await fake.tabs.navigate(tab, "https://a.test/next");
  await fake.settle();
  const result = watch.settle(true, 60);
  open();
  assert.equal(await result, "unknown", "no 10 s wait for a commit the dialog holds back");
  watch.stop();
});
