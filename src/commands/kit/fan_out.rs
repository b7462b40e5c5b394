//! The one way to ask for many things at once: every item fetched
//! concurrently (at most `--concurrency` at a time), the results handed on
//! in the order of the items, each as soon as it and those before it are
//! in.

use std::collections::BTreeMap;
use std::future::Future;

use futures_util::{Stream, StreamExt, stream};

/// `f` for every item, at most `concurrency` at once; the results come out
/// in the order of `items`. Unordered underneath, so one slow item does
/// not hold the others' slots; every item gets its own result, a failure
/// included.
pub fn in_order<'a, T, R, F, Fut>(
    concurrency: usize,
    items: &'a [T],
    f: F,
) -> impl Stream<Item = (&'a T, R)> + 'a
where
    F: Fn(&'a T) -> Fut + 'a,
    Fut: Future<Output = R> + 'a,
    R: 'a,
{
    let done = stream::iter(items.iter().enumerate())
        .map(move |(i, t)| {
            let fut = f(t);
            async move { (i, fut.await) }
        })
        .buffer_unordered(concurrency.max(1));
    // Results that came in early wait here for those before them.
    let state = (done, BTreeMap::new(), 0usize);
    stream::unfold(state, move |(mut done, mut waiting, next)| async move {
        loop {
            if let Some(r) = waiting.remove(&next) {
                return Some(((&items[next], r), (done, waiting, next + 1)));
            }
            let (i, r) = done.next().await?;
            waiting.insert(i, r);
        }
    })
}

/// Every result of `in_order`, collected.
pub async fn all<'a, T, R, F, Fut>(concurrency: usize, items: &'a [T], f: F) -> Vec<R>
where
    F: Fn(&'a T) -> Fut + 'a,
    Fut: Future<Output = R> + 'a,
    R: 'a,
{
    in_order(concurrency, items, f)
        .map(|(_, r)| r)
        .collect()
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn results_come_in_the_order_of_the_items() {
        // The first item is the slowest: the others wait for it.
        let items = [30u64, 10, 20, 5];
        let got = all(2, &items, |&ms| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            ms
        })
        .await;
        assert_eq!(got, items);
    }

    #[tokio::test(start_paused = true)]
    async fn a_result_goes_on_as_soon_as_those_before_it_are_in() {
        let items = [10u64, 1000];
        let mut s = std::pin::pin!(in_order(2, &items, |&ms| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            ms
        }));
        let t = tokio::time::Instant::now();
        assert_eq!(s.next().await.map(|(_, r)| r), Some(10));
        assert!(t.elapsed() < Duration::from_millis(500));
    }
}
