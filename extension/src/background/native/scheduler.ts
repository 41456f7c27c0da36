// Orders the host's requests. Each task has one promise chain, so one task's
// operations run in the order they arrived (each link is added as its
// request is read off the port, first in, first out) while different tasks
// proceed independently (spec 001: "an ordered tail per task"). A global
// operation (reconciliation, Pause, Resume) waits for every running task
// operation and holds back the ones that arrive after it (DESIGN.md
// "Queues": a global barrier); an open into a new window is not one
// (issue 10: it holds back only its own task).

export class Scheduler {
  private globalTail: Promise<void> = Promise.resolve();
  private readonly tails = new Map<string, Promise<void>>();

  task<T>(taskId: string, f: () => Promise<T>): Promise<T> {
    const before = [this.tails.get(taskId) ?? Promise.resolve(), this.globalTail];
    const run = Promise.all(before).then(f);
    const tail = settled(run);
    this.tails.set(taskId, tail);
    void tail.then(() => {
      if (this.tails.get(taskId) === tail) this.tails.delete(taskId);
    });
    return run;
  }

  /**
   * A read (snapshot, wait): it starts after the task's earlier operations
   * have settled, so it never observes a change in progress, but it is not
   * part of the tail, so it never holds back later ones (spec 001: "Reads
   * wait behind the relevant tab mutation"; DESIGN.md "Queues").
   */
  read<T>(taskId: string, f: () => Promise<T>): Promise<T> {
    return Promise.all([this.tails.get(taskId) ?? Promise.resolve(), this.globalTail]).then(f);
  }

  global<T>(f: () => Promise<T>): Promise<T> {
    const run = Promise.all([this.globalTail, ...this.tails.values()]).then(f);
    this.globalTail = settled(run);
    return run;
  }
}

// A chain link that settles when p does, whether p fulfils or rejects: one
// failed operation must not block the ones queued behind it.
function settled(p: Promise<unknown>): Promise<void> {
  return p.then(
    () => undefined,
    () => undefined,
  );
}
