use super::*;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

/// Uneven work: later items often finish before earlier ones.
fn uneven(i: &usize) -> usize {
    if i.is_multiple_of(7) {
        std::thread::sleep(Duration::from_micros(300));
    }
    i * 2
}

#[test]
fn map_keeps_input_order_on_any_thread_count() {
    let items: Vec<usize> = (0..500).collect();
    let expected: Vec<usize> = items.iter().map(|i| i * 2).collect();
    for threads in [1, 2, 4] {
        for window in [1, 3, 1000] {
            let pool = Pool::with_threads(threads).window(window);
            assert_eq!(
                pool.map_ordered(items.clone(), uneven),
                expected,
                "{threads} threads, window {window}"
            );
        }
    }
    assert!(Pool::all_cores()
        .map_ordered(Vec::<usize>::new(), uneven)
        .is_empty());
}

#[test]
fn break_stops_the_producer_and_the_takes() {
    for threads in [1, 3] {
        let emitted = AtomicUsize::new(0);
        let mut taken = Vec::new();
        Pool::with_threads(threads).window(8).for_each_ordered(
            |emit| {
                for i in 0..100_000usize {
                    emitted.fetch_add(1, Ordering::Relaxed);
                    if !emit(i) {
                        return;
                    }
                }
            },
            || (),
            |(), i| uneven(i),
            |i, r| {
                assert_eq!(r, i * 2);
                taken.push(i);
                if i == 10 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(taken, (0..=10).collect::<Vec<_>>(), "{threads} threads");
        // The window (8) bounds how far the producer got past the break.
        assert!(
            emitted.load(Ordering::Relaxed) <= 11 + 8 + 1,
            "{threads} threads"
        );
    }
}

#[test]
fn the_window_bounds_items_in_flight() {
    let taken = AtomicUsize::new(0);
    let worst = AtomicUsize::new(0);
    Pool::with_threads(3).window(5).for_each_ordered(
        |emit| {
            for i in 0..2000usize {
                if !emit(i) {
                    return;
                }
                let ahead = i + 1 - taken.load(Ordering::SeqCst);
                worst.fetch_max(ahead, Ordering::SeqCst);
            }
        },
        || (),
        |(), i| uneven(i),
        |_, _| {
            taken.fetch_add(1, Ordering::SeqCst);
            ControlFlow::Continue(())
        },
    );
    assert_eq!(taken.load(Ordering::SeqCst), 2000);
    let worst = worst.load(Ordering::SeqCst);
    assert!((1..=5).contains(&worst), "at most 5 in flight, saw {worst}");
}

#[test]
fn each_worker_keeps_its_own_state() {
    let inits = AtomicUsize::new(0);
    let out = Pool::with_threads(3).map_ordered((0..300usize).collect(), |i| *i);
    assert_eq!(out.len(), 300);
    let mut sums = 0;
    Pool::with_threads(3).for_each_ordered(
        |emit| {
            (0..300usize).for_each(|i| {
                emit(i);
            })
        },
        || {
            inits.fetch_add(1, Ordering::Relaxed);
            Vec::new()
        },
        |seen: &mut Vec<usize>, i| {
            seen.push(*i);
            assert!(
                seen.windows(2).all(|w| w[0] < w[1]),
                "each worker gets items in emit order"
            );
            *i
        },
        |_, r| {
            sums += r;
            ControlFlow::Continue(())
        },
    );
    assert_eq!(sums, (0..300).sum::<usize>());
    assert!((1..=3).contains(&inits.load(Ordering::Relaxed)));
}

#[test]
fn panics_reach_the_caller_without_hanging() {
    let work_panic = catch_unwind(|| {
        Pool::with_threads(2)
            .window(4)
            .map_ordered((0..1000usize).collect(), |i| {
                assert!(*i != 37, "boom at 37");
                *i
            })
    });
    let payload = work_panic.expect_err("the worker's panic is resumed");
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or(payload.downcast_ref::<String>().map(String::as_str));
    assert_eq!(text, Some("boom at 37"));
    let produce_panic = catch_unwind(|| {
        Pool::with_threads(2).for_each_ordered(
            |emit: &mut dyn FnMut(usize) -> bool| {
                emit(1);
                panic!("producer failed");
            },
            || (),
            |(), i| *i,
            |_, _| ControlFlow::Continue(()),
        )
    });
    assert!(produce_panic.is_err());
}
