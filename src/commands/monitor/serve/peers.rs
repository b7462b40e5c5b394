//! The exporter's per-peer connection cap: how many connections (and TLS
//! handshakes) each client address holds, so that one address opening idle
//! or trickling sockets cannot take the slots that other clients, the
//! Prometheus that scrapes, need.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Connections counted per client address, at most `max` each.
pub struct Peers {
    max: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection of a peer, counted until dropped.
pub struct PeerSlot {
    peers: Arc<Peers>,
    ip: IpAddr,
}

impl Peers {
    pub fn new(max: usize) -> Arc<Self> {
        Arc::new(Peers {
            max,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for one more connection from `ip`, or `None` when it holds
    /// `max` already. An IPv4 address mapped into IPv6 counts as itself.
    pub fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<PeerSlot> {
        let ip = ip.to_canonical();
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let n = held.entry(ip).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(PeerSlot {
            peers: self.clone(),
            ip,
        })
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        let mut held = (self.peers.held.lock()).unwrap_or_else(|e| e.into_inner());
        // The map holds only peers with a connection: it is bounded by the
        // connections, not by how many addresses ever came.
        if let Some(n) = held.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_gets_max_slots_and_one_more_once_one_ends() {
        let p = Peers::new(2);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let mapped: IpAddr = "::ffff:127.0.0.2".parse().unwrap();
        let (s1, _s2) = (p.enter(a).unwrap(), p.enter(mapped).unwrap());
        assert!(p.enter(a).is_none(), "a third from the same address");
        assert!(p.enter("127.0.0.3".parse().unwrap()).is_some());
        drop(s1);
        assert!(p.enter(a).is_some());
    }

    #[test]
    fn peers_without_a_connection_are_forgotten() {
        let p = Peers::new(1);
        for i in 0..100u8 {
            drop(p.enter(IpAddr::from([10, 0, 0, i])).unwrap());
        }
        assert!(p.held.lock().unwrap().is_empty());
    }
}
