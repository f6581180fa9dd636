// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"runtime"
	"sort"
	"sync"
)

// Strategy is the kind of a replication description (tokenring_strategy).
type Strategy int

// Replication strategies.
const (
	SimpleStrategy          Strategy = 1
	NetworkTopologyStrategy Strategy = 2
)

// String returns the Cassandra class name of the strategy.
func (s Strategy) String() string {
	switch s {
	case SimpleStrategy:
		return "SimpleStrategy"
	case NetworkTopologyStrategy:
		return "NetworkTopologyStrategy"
	}
	return "Strategy(" + itoa(int64(s)) + ")"
}

// Factor is one replication factor of a description: for NetworkTopologyStrategy one
// datacenter's, for SimpleStrategy the single one (Datacenter empty). Transient replicas
// are counted in RF (CQL writes RF/Transient).
type Factor struct {
	Datacenter string
	RF         int
	Transient  int
}

// Replication is a replication description (SimpleStrategy or NetworkTopologyStrategy).
// Its methods may be called from several goroutines (a mutex serializes them). Call
// Close when done; placements copy what they need and do not depend on it.
//
// The zero value is not a description: methods return ErrZeroValue (Strategy and String
// return zero values) until it is replaced by one from a constructor; they never panic.
type Replication struct {
	mu     sync.Mutex
	ptr    *C.tokenring_replication
	closed bool // set by Close: tells a closed handle from a zero value
}

func wrapReplication(p *C.tokenring_replication) *Replication {
	r := &Replication{ptr: p}
	runtime.SetFinalizer(r, (*Replication).Close)
	return r
}

// NewSimpleStrategy returns SimpleStrategy with replication factor rf (0 ..
// MaxReplicationFactor; 0 places no replicas, above the node count every node), transient of which are transient (0 .. rf-1).
// Out-of-range factors give ErrRange.
func NewSimpleStrategy(rf, transient int) (*Replication, error) {
	if rf < -1<<31 || rf >= 1<<31 || transient < -1<<31 || transient >= 1<<31 {
		return nil, goError(CodeRange, "replication factor %d/%d does not fit 32 bits", rf, transient)
	}
	var p *C.tokenring_replication
	var detail C.tokenring_error
	if err := newError(C.tokenring_replication_simple(&p, C.int32_t(rf), C.int32_t(transient), &detail), &detail); err != nil {
		return nil, err
	}
	return wrapReplication(p), nil
}

// NewNetworkTopologyStrategy returns NetworkTopologyStrategy with the given full
// replication factor per datacenter (add transient factors with SetDC). A nil or empty
// map gives a description without datacenters.
func NewNetworkTopologyStrategy(factors map[string]int) (*Replication, error) {
	var p *C.tokenring_replication
	if err := check(C.tokenring_replication_network(&p)); err != nil {
		return nil, err
	}
	r := wrapReplication(p)
	dcs := make([]string, 0, len(factors))
	for dc := range factors {
		dcs = append(dcs, dc)
	}
	sort.Strings(dcs) // deterministic error reporting
	for _, dc := range dcs {
		if err := r.SetDC(dc, factors[dc], 0); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// ParseReplication parses a replication description: a CQL replication map such as
// {'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2/1'}, the short forms
// "SimpleStrategy:3" and "NetworkTopologyStrategy:dc1=3,dc2=2/1", a bare "3"
// (SimpleStrategy) or "dc1=3,dc2=2/1". Malformed text gives ErrParse with a column.
func ParseReplication(text string) (*Replication, error) {
	var p *C.tokenring_replication
	var detail C.tokenring_error
	if err := newError(C.tokenring_replication_parse(&p, textPtr(text), C.size_t(len(text)), &detail), &detail); err != nil {
		return nil, err
	}
	return wrapReplication(p), nil
}

// Close frees the description. Calling it again does nothing.
func (r *Replication) Close() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr != nil {
		C.tokenring_replication_free(r.ptr)
		r.ptr = nil
		r.closed = true
		runtime.SetFinalizer(r, nil)
	}
	return nil
}

// SetDC sets (or replaces) one datacenter's factor of a NetworkTopologyStrategy
// description; rf 0 records the datacenter with no replicas. On a SimpleStrategy it gives
// ErrInvalid.
func (r *Replication) SetDC(datacenter string, rf, transient int) error {
	if rf < -1<<31 || rf >= 1<<31 || transient < -1<<31 || transient >= 1<<31 {
		return goError(CodeRange, "replication factor %d/%d does not fit 32 bits", rf, transient)
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return err
	}
	if err := r.enter(); err != nil {
		return err
	}
	defer r.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_replication_set_dc(r.ptr, charp(cd), C.int32_t(rf), C.int32_t(transient), &detail), &detail)
}

// Strategy returns the kind of description (0 after Close).
func (r *Replication) Strategy() Strategy {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return Strategy(C.tokenring_replication_strategy(r.ptr))
}

// Factors returns the factors: one per datacenter sorted by name for
// NetworkTopologyStrategy, the single factor for SimpleStrategy.
func (r *Replication) Factors() ([]Factor, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer r.mu.Unlock()
	n := int(C.tokenring_replication_dc_count(r.ptr))
	if C.tokenring_replication_strategy(r.ptr) == C.TOKENRING_SIMPLE {
		n = 1
	}
	out := make([]Factor, n)
	for i := range out {
		var dc *C.char
		var rf, tr C.int32_t
		if err := check(C.tokenring_replication_get(&dc, &rf, &tr, r.ptr, C.size_t(i))); err != nil {
			return nil, err
		}
		out[i] = Factor{Datacenter: goStringN(dc), RF: int(rf), Transient: int(tr)}
	}
	return out, nil
}

// DCFactor returns the replication factor and transient count the description gives
// datacenter: a SimpleStrategy's factor for any datacenter, 0 and 0 for a datacenter a
// NetworkTopologyStrategy does not list.
func (r *Replication) DCFactor(datacenter string) (rf, transient int, err error) {
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return 0, 0, err
	}
	if err := r.enter(); err != nil {
		return 0, 0, err
	}
	defer r.mu.Unlock()
	var f, tr C.int32_t
	if err := check(C.tokenring_replication_dc_factor(&f, &tr, r.ptr, charp(cd))); err != nil {
		return 0, 0, err
	}
	return int(f), int(tr), nil
}

// String formats the description as a CQL replication map, datacenters sorted, e.g.
// {'class': 'NetworkTopologyStrategy', 'dc1': '3'}; "<closed>" after Close.
func (r *Replication) String() string {
	if r == nil {
		return "<nil Replication>"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr == nil {
		if !r.closed {
			return "<zero Replication>"
		}
		return "<closed>"
	}
	s, err := formatReplication(r.ptr)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return s
}

// CassandraRules are the replica-order rules of a Cassandra release line
// (tokenring_cassandra_rules): how NetworkTopologyStrategy orders the replicas of a
// datacenter with fewer racks than its replication factor. Replica sets are the same
// under both; the order, and so the primary replica, differs.
type CassandraRules int

// Release rules.
const (
	// Rules30 is Cassandra before 3.2 (2.x, 3.0.x, 3.1): nodes of used racks are skipped
	// and appended once every rack has a replica.
	Rules30 CassandraRules = C.TOKENRING_RULES_3_0
	// Rules32 is Cassandra 3.2 and later (3.11, 4.0, 4.1, 5.0; CASSANDRA-10200): a used
	// rack's node is taken at once while the rf - racks budget lasts. The default.
	Rules32 CassandraRules = C.TOKENRING_RULES_3_2
	// RulesLatest is the rules every description starts with.
	RulesLatest CassandraRules = C.TOKENRING_RULES_LATEST
)

// String names the rules ("3.0", "3.2+").
func (r CassandraRules) String() string {
	switch r {
	case Rules30:
		return "3.0"
	case Rules32:
		return "3.2+"
	}
	return "CassandraRules(" + itoa(int64(r)) + ")"
}

// CassandraRulesForVersion returns the rules of a Cassandra release such as "3.0.30",
// "4.1" or "5.0-rc1": Rules30 before 3.2, Rules32 from 3.2 on. Malformed text gives
// ErrParse, a major version outside 1..99 or a release line the library does not know
// (known: 1.2, 2.0 to 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0, 6.0) ErrRange. 6.0 gives Rules32:
// its sets, ranges and ownership are 5.0's; its replica order follows the cluster's
// history (ReplayHistory), which no rules value says: a placement from tokens keeps the
// 5.0 order.
func CassandraRulesForVersion(version string) (CassandraRules, error) {
	cv, err := cname("Cassandra version", version)
	if err != nil {
		return 0, err
	}
	var out C.int
	var detail C.tokenring_error
	if err := newError(C.tokenring_cassandra_rules_for_version(&out, charp(cv), &detail), &detail); err != nil {
		return 0, err
	}
	return CassandraRules(out), nil
}

// SetRules chooses the release rules placements of this description follow (and the
// ownership and analyses built on them). Unknown rules give ErrInvalid.
func (r *Replication) SetRules(rules CassandraRules) error {
	if err := r.enter(); err != nil {
		return err
	}
	defer r.mu.Unlock()
	if rules < -1<<31 || rules >= 1<<31 {
		return goError(CodeInvalid, "unknown rules %d", int(rules))
	}
	if err := check(C.tokenring_replication_set_rules(r.ptr, C.int(rules))); err != nil {
		return goError(CodeInvalid, "unknown rules %d", int(rules))
	}
	return nil
}

// Rules returns the release rules of the description (0 after Close).
func (r *Replication) Rules() CassandraRules {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return CassandraRules(C.tokenring_replication_rules(r.ptr))
}
