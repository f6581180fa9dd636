// SPDX-License-Identifier: Apache-2.0

package tokenringgocql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gocql/gocql"
	tokenring "github.com/libtokenring/tokenring/bindings/go"
	"github.com/libtokenring/tokenring/bindings/go/hostpolicy"
)

// Row is one row of a system table as gocql's MapScan returns it.
type Row = hostpolicy.Row

// RowOptions are the choices of RouterFromRows and RouterFromSession.
type RowOptions = hostpolicy.RowOptions

// RouterFromRows is hostpolicy.RouterFromRows: a router of one host's system.local,
// system.peers_v2 (or system.peers) and system_schema.keyspaces rows, under the router's
// rules.
func RouterFromRows(local Row, peers []Row, keyspaces []Row, opt RowOptions) (*tokenring.Router, error) {
	return hostpolicy.RouterFromRows(local, peers, keyspaces, opt)
}

type pinKey struct{}

// PinHost returns a context that makes a Policy send the queries that carry it (and have
// no routing key) to host only: how RouterFromSession reads all its tables from one node.
func PinHost(ctx context.Context, host *gocql.HostInfo) context.Context {
	return context.WithValue(ctx, pinKey{}, host)
}

func pinnedHost(q gocql.ExecutableQuery) *gocql.HostInfo {
	if qq, ok := q.(*gocql.Query); ok {
		if h, ok := qq.Context().Value(pinKey{}).(*gocql.HostInfo); ok {
			return h
		}
	}
	return nil
}

func readAll(ctx context.Context, s *gocql.Session, stmt string) ([]Row, *gocql.HostInfo, error) {
	it := s.Query(stmt).WithContext(ctx).Iter()
	rows, err := it.SliceMap()
	host := it.Host()
	if err != nil {
		return nil, host, err
	}
	return rows, host, nil
}

// RouterFromSession returns the router of a connected session: system.local,
// system.peers_v2 (system.peers on servers without it) and system_schema.keyspaces, all
// read from ONE host (other nodes may see another ring for a moment); on Cassandra 6 and
// later also system_views.cluster_metadata_log and cluster_metadata_directory, whose
// history gives the replicas' order (hostpolicy.WithHistoryRows). With any policy but
// a Policy the three reads are repeated (up to 20 times) until one host has answered all
// three.
func RouterFromSession(s *gocql.Session, opt RowOptions) (*tokenring.Router, error) {
	return RouterFromSessionContext(context.Background(), s, nil, opt)
}

// RouterFromSessionContext is RouterFromSession with a context and, with a Policy
// session, the queries pinned to the policy's first host that is up (see PinHost).
func RouterFromSessionContext(ctx context.Context, s *gocql.Session, policy *Policy, opt RowOptions) (*tokenring.Router, error) {
	if policy != nil {
		var host *gocql.HostInfo
		for _, h := range policy.core.Hosts() {
			if h.IsUp() {
				host = h
				break
			}
		}
		if host == nil {
			return nil, errors.New("the policy knows no host that is up")
		}
		ctx = PinHost(ctx, host)
	}
	var lastErr error
	for attempt := 0; attempt < 20; attempt++ {
		local, h1, err := readAll(ctx, s, hostpolicy.SelectLocal)
		if err != nil {
			return nil, fmt.Errorf("system.local: %w", err)
		}
		peers, h2, err := readAll(ctx, s, hostpolicy.SelectPeersV2)
		if err != nil && strings.Contains(err.Error(), "peers_v2") {
			peers, h2, err = readAll(ctx, s, hostpolicy.SelectPeers)
		}
		if err != nil {
			return nil, fmt.Errorf("system.peers: %w", err)
		}
		keyspaces, h3, err := readAll(ctx, s, hostpolicy.SelectKeyspaces)
		if err != nil {
			return nil, fmt.Errorf("system_schema.keyspaces: %w", err)
		}
		if h1 == nil || h1 != h2 || h2 != h3 {
			lastErr = fmt.Errorf("the three tables came from different hosts (%v, %v, %v)", h1, h2, h3)
			continue
		}
		if len(local) != 1 {
			return nil, fmt.Errorf("system.local of %s has %d rows", h1.ConnectAddress(), len(local))
		}
		r, err := hostpolicy.RouterFromRows(local[0], peers, keyspaces, opt)
		if err != nil || hostpolicy.ReleaseMajor(hostpolicy.Text(local[0]["release_version"])) < 6 {
			return r, err
		}
		// Cassandra 6 and later: the replica order of the cluster's history, read from
		// the same host
		log, h4, err := readAll(ctx, s, hostpolicy.SelectMetadataLog)
		if err == nil {
			var dir []Row
			var h5 *gocql.HostInfo
			if dir, h5, err = readAll(ctx, s, hostpolicy.SelectMetadataDirectory); err == nil {
				if h4 != h1 || h5 != h1 {
					lastErr = fmt.Errorf("the metadata tables came from another host (%v, %v, %v)", h1, h4, h5)
					r.Close()
					continue
				}
				var hr *tokenring.Router
				hr, err = hostpolicy.WithHistoryRows(r, log, dir)
				r.Close()
				return hr, err
			}
		}
		r.Close()
		return nil, fmt.Errorf("the cluster's history (Cassandra 6): %w", err)
	}
	return nil, fmt.Errorf("could not read the system tables from one host: %w (use a Policy session, or one host)", lastErr)
}
