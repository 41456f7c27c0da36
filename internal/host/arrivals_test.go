package host

import (
	"fmt"
	"sync"
	"testing"
)

// Places passed out of order let a later request go only once every
// earlier one has passed; a task's line hands its order over first come,
// first served.
func TestArrivalsAndTaskLinesKeepOrder(t *testing.T) {
	a := newArrivals()
	a.pass(2) // the second request ended early (refused, say)
	third := make(chan struct{})
	go func() { a.await(3); close(third) }()
	select {
	case <-third:
		t.Fatal("request 3 went on before request 1 passed")
	default:
	}
	a.pass(1)
	<-third
	a.await(0) // not read off a connection: waits for nothing
	a.pass(1)  // passing again does nothing

	var l taskLocks
	release := l.lock("t")
	var mu sync.Mutex
	var ran []int
	var wg sync.WaitGroup
	for i := range 5 {
		turn, next := l.join("t") // joined in this order
		wg.Go(func() {
			<-turn
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
			next()
		})
	}
	release()
	wg.Wait()
	if fmt.Sprint(ran) != "[0 1 2 3 4]" || l.held() != 0 {
		t.Fatalf("ran %v, %d lines left", ran, l.held())
	}
}
