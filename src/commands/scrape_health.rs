//! Which of `metrics serve`'s IDs are failing, so that a long-running
//! exporter logs an ID when it starts failing and when it recovers (with
//! how many scrapes it failed), not an `error:` line per ID per scrape.
//! Pure: the exporter feeds it each fetch's outcomes and each scrape.

/// A change in one ID's health, by its position among the targets.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// It failed, having been answered before (or at the start).
    Fails(usize),
    /// It was answered again after failing for this many scrapes.
    Recovers(usize, u64),
}

/// Per target: `None` while answered, else the scrapes answered since it
/// started failing.
pub struct Health {
    failing: Vec<Option<u64>>,
}

impl Health {
    pub fn new(targets: usize) -> Self {
        Health {
            failing: vec![None; targets],
        }
    }

    /// A fresh fetch's outcomes (`true`: answered), one per target, and
    /// the changes they bring.
    pub fn fetched(&mut self, answered: impl IntoIterator<Item = bool>) -> Vec<Change> {
        let mut changes = Vec::new();
        for (i, (ok, state)) in answered.into_iter().zip(&mut self.failing).enumerate() {
            match (ok, *state) {
                (false, None) => {
                    *state = Some(0);
                    changes.push(Change::Fails(i));
                }
                (true, Some(n)) => {
                    *state = None;
                    changes.push(Change::Recovers(i, n));
                }
                _ => {}
            }
        }
        changes
    }

    /// A scrape was answered (from a fetch or the cache): it counts for
    /// every failing target.
    pub fn scraped(&mut self) {
        for n in self.failing.iter_mut().flatten() {
            *n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_is_reported_when_it_fails_and_when_it_recovers() {
        let mut h = Health::new(2);
        assert_eq!(h.fetched([true, false]), vec![Change::Fails(1)]);
        h.scraped();
        for _ in 0..3 {
            assert_eq!(h.fetched([true, false]), vec![]);
            h.scraped();
        }
        // Cached scrapes count too.
        h.scraped();
        assert_eq!(
            h.fetched([false, true]),
            vec![Change::Fails(0), Change::Recovers(1, 5)]
        );
        h.scraped();
        assert_eq!(h.fetched([true, true]), vec![Change::Recovers(0, 1)]);
        assert_eq!(h.fetched([true, true]), vec![]);
    }
}
