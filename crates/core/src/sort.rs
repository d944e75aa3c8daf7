//! One sort for the core and the page: a stable merge sort of indices under a comparator passed
//! as a trait object, then the elements moved into that order. The standard library's sorts are
//! generic over the element and the comparison, so each call site carries its own copy (a few KB
//! of WASM each); here the sorting code exists once and only the small permutation step is
//! generic. The lists sorted here are short (terms, devices, models), so merge sort's n log n
//! comparisons with one index buffer are plenty.

use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Sorts `v` by `cmp`, stably (equal elements keep their order).
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let items: &[T] = v;
        sorted_indices(items.len(), &mut |a, b| cmp(&items[a], &items[b]))
    };
    permute(v, &order);
}

/// Sorts `v` by the key `key` gives, stably.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` in its natural order, stably.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The indices `0..n` in stable sorted order: bottom-up merge sort, not generic.
fn sorted_indices(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    let mut b = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut l, mut r) = (start, mid);
            for slot in &mut b[start..end] {
                // Take from the right run only when strictly smaller: stability.
                let take_right = l >= mid || (r < end && cmp(a[r], a[l]) == Ordering::Less);
                if take_right {
                    *slot = a[r];
                    r += 1;
                } else {
                    *slot = a[l];
                    l += 1;
                }
            }
            start = end;
        }
        core::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Moves `v`'s elements so that `v[i]` becomes the old `v[order[i]]` (cycle by cycle, by swaps).
fn permute<T>(v: &mut [T], order: &[usize]) {
    let mut placed = vec![false; v.len()];
    for start in 0..v.len() {
        if placed[start] {
            continue;
        }
        let mut i = start;
        placed[i] = true;
        while order[i] != start {
            let j = order[i];
            v.swap(i, j);
            placed[j] = true;
            i = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, ties included.
        #[test]
        fn equals_the_standard_stable_sort(v in proptest::collection::vec((0u8..8, any::<u16>()), 0..300)) {
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std_sorted = v.clone();
            std_sorted.sort_by_key(|a| a.0);
            prop_assert_eq!(ours, std_sorted);
            let mut keyed = v.clone();
            sort_by_key(&mut keyed, |x| core::cmp::Reverse(x.1));
            let mut std_keyed = v.clone();
            std_keyed.sort_by_key(|x| core::cmp::Reverse(x.1));
            prop_assert_eq!(keyed, std_keyed);
            let mut plain = v;
            let mut std_plain = plain.clone();
            sort(&mut plain);
            std_plain.sort();
            prop_assert_eq!(plain, std_plain);
        }
    }
}
