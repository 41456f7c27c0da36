package protocol

import "testing"

func TestClassify(t *testing.T) {
	wait := Step{Kind: StepWait, Wait: &WaitCondition{Until: WaitLoad}}
	click := Step{Kind: StepClick, Ref: "e1"}
	for _, tc := range []struct {
		name   string
		method string
		params any
		want   RequestClass
	}{
		{"reconcile passes the global barrier", NativeReconcile, ReconcileParams{}, ClassGlobal},
		{"pause too", NativePause, nil, ClassGlobal},
		{"and pausing, which begins it", NativePausing, nil, ClassGlobal},
		{"and unpause", NativeUnpause, nil, ClassGlobal},
		{"open", NativeOpen, ExtOpenParams{Placement: PlacementTab}, ClassMutation},
		{"an open into a new window holds only its task's order", NativeOpen, ExtOpenParams{Placement: PlacementNewWindow}, ClassMutation},
		{"adopt", NativeAdopt, ExtAdoptParams{}, ClassMutation},
		{"finish", NativeFinish, ExtFinishParams{}, ClassMutation},
		{"snapshot", NativeSnapshot, ExtSnapshotParams{}, ClassRead},
		{"tabs", NativeTabs, ExtTabsParams{}, ClassRead},
		{"wait", NativeWait, nil, ClassRead},
		{"ping", NativePing, nil, ClassRead},
		{"an act of waits only reads", NativeAct, ExtActParams{Actions: []Step{wait, wait}}, ClassRead},
		{"an act with a click mutates", NativeAct, ExtActParams{Actions: []Step{wait, click}}, ClassMutation},
		{"an act of unknown shape counts as a mutation", NativeAct, map[string]any{"actions": []any{}}, ClassMutation},
		{"a method without a class counts as a mutation", "teleport", nil, ClassMutation},
	} {
		if got := Classify(tc.method, tc.params); got != tc.want {
			t.Errorf("%s: Classify = %s, want %s", tc.name, got, tc.want)
		}
	}
}
