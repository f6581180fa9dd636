// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"errors"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// KeyspaceChanged reads a keyspace's replication again (a schema event: created,
// altered, dropped, or the session's keyspace announced) and applies it to the router.
func (c *Core[H]) KeyspaceChanged(name string) {
	if name == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadKeyspaceLocked(name)
}

// LoadKeyspace reads a keyspace's replication now (Pick loads a keyspace it has not seen
// in the background; this does it at once).
func (c *Core[H]) LoadKeyspace(name string) { c.KeyspaceChanged(name) }

// SetKeyspace gives a keyspace's replication map directly (nil: the keyspace does not
// exist), for embedders that keep their own schema.
func (c *Core[H]) SetKeyspace(name string, replication map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.setKeyspaceLocked(name, replication)
	}
}

func (c *Core[H]) loadKeyspaceLocked(name string) {
	if c.closed || c.cfg.Keyspace == nil {
		return
	}
	m, err := c.cfg.Keyspace(name)
	if errors.Is(err, ErrNoKeyspace) {
		m, err = nil, nil
	}
	if err != nil {
		c.fail("keyspace %q: its metadata could not be read: %v", name, err)
		return
	}
	c.setKeyspaceLocked(name, m)
}

// loadAsync loads a keyspace in the background, once at a time (Pick calls it: it never
// waits for the writers' lock, which a schema read may hold for a network round trip).
func (c *Core[H]) loadAsync(name string) {
	c.loadMu.Lock()
	if c.loading[name] {
		c.loadMu.Unlock()
		return
	}
	c.loading[name] = true
	c.loadMu.Unlock()
	go func() {
		c.mu.Lock()
		if st := c.state.Load(); st != nil && st.keyspaces[name] == nil {
			c.loadKeyspaceLocked(name)
		}
		c.mu.Unlock()
		c.loadMu.Lock()
		delete(c.loading, name)
		c.loadMu.Unlock()
	}()
}

// setKeyspaceLocked applies a keyspace's replication map m (nil: it does not exist) to
// the router as a created, altered or dropped event. A map the router refuses (an unknown
// class, a bad factor) drops the keyspace from the router: it routes through the
// fallback, and LastError says why.
func (c *Core[H]) setKeyspaceLocked(name string, m map[string]string) {
	prev, had := c.given[name]
	st := c.state.Load()
	if st == nil { // no router yet: the first build takes it
		delete(c.refused, name)
		if m == nil {
			delete(c.given, name)
		} else {
			c.given[name] = m
		}
		return
	}
	if m == nil {
		delete(c.refused, name)
		if !had {
			if st.keyspaces[name] == nil || st.keyspaces[name].routed {
				c.publishLocked(st.router, false, name)
			}
			return
		}
		delete(c.given, name)
		r, err := st.router.Apply(tokenring.RouterEvent{Kind: tokenring.EventDropped, Keyspace: name})
		if err != nil {
			c.fail("keyspace %q: its drop was not applied: %v", name, err)
			r = st.router
		}
		c.publishLocked(r, false, name)
		c.scheduleHistoryLocked()
		return
	}
	if had && canonical(prev) == canonical(m) {
		if st.keyspaces[name] == nil {
			c.publishLocked(st.router, false, name)
		}
		return
	}
	kind := tokenring.EventCreated
	if had {
		kind = tokenring.EventAltered
	}
	r, err := st.router.Apply(tokenring.RouterEvent{Kind: kind, Keyspace: name, Replication: m})
	if err != nil && kind == tokenring.EventCreated && errors.Is(err, tokenring.ErrExists) {
		r, err = st.router.Apply(tokenring.RouterEvent{Kind: tokenring.EventAltered, Keyspace: name, Replication: m})
	}
	if err != nil {
		// the router may still hold the previous replication: drop it there
		r = st.router
		if d, e := st.router.Apply(tokenring.RouterEvent{Kind: tokenring.EventDropped, Keyspace: name}); e == nil {
			r = d
		}
		c.refuseLocked(name, err)
		c.publishLocked(r, false, name)
		return
	}
	delete(c.refused, name)
	c.given[name] = m
	c.publishLocked(r, false, name)
	c.scheduleHistoryLocked()
}
