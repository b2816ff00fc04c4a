import Dispatch
import Foundation
import MovieApp
import Reactive
import Synchronization
import TestSupport
import Testing

/// Collects elements delivered on any thread and lets a test wait for them.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = TestMutex<[Element]>([])
    private let arrivals = DispatchSemaphore(value: 0)

    func record(_ element: Element) {
        elements.withLock { $0.append(element) }
        arrivals.signal()
    }

    var recorded: [Element] { elements.withLock { $0 } }

    /// Waits until `count` elements have arrived in all, or `seconds` have passed (it returns at the arrival: a
    /// longer wait costs a passing test nothing).
    func wait(for count: Int, seconds: Int = 5) -> [Element] {
        let deadline = DispatchTime.now() + .seconds(seconds)
        while recorded.count < count {
            if arrivals.wait(timeout: deadline) == .timedOut { break }
        }
        return recorded
    }
}

@Suite("Movie change feed")
struct MovieChangesTests {
    let folder: TemporaryFolder
    let path: String
    let store: SQLiteMovieStore

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("movies.sqlite")
        store = try SQLiteMovieStore(path: path, seedingFrom: try folder.catalog(sampleMovies()))
    }

    @Test func deliversTheMovieOnlyOnceItIsCommitted() throws {
        // Another connection sees only committed data: what it reads at delivery time proves the commit.
        let otherConnection = try SQLiteMovieStore(path: path)
        let seen = Recorder<(delivered: Movie, onDisk: Movie?)>()
        let subscription = store.changes(of: 2).subscribe(onNext: { movie in
            seen.record((movie, try? otherConnection.movie(id: 2)))
        })
        defer { subscription.dispose() }

        let updated = try store.update(id: 2, with: MoviePatch(title: "Committed", rating: 6.5))
        let deliveries = seen.wait(for: 1)
        try #require(deliveries.count == 1)
        #expect(deliveries[0].delivered == updated)
        #expect(deliveries[0].onDisk == updated)
    }

    @Test func deliversOnlyTheChangesOfThatMovie() throws {
        let first = Recorder<Movie>()
        let third = Recorder<Movie>()
        let subscriptions = [
            store.changes(of: 1).subscribe(onNext: first.record),
            store.changes(of: 3).subscribe(onNext: third.record),
        ]
        defer { subscriptions.forEach { $0.dispose() } }

        _ = try store.update(id: 2, with: MoviePatch(rating: 0.5))
        _ = try store.update(id: 3, with: MoviePatch(rating: 4.5))
        _ = try store.update(id: 3, with: MoviePatch(rating: 5.5))
        // Deliveries keep commit order, so once movie 3's last change arrived, nothing for movie 1 is still on its
        // way. (Its first change may have merged into the second, waiting for delivery together.)
        #expect(eventually { third.recorded.last?.rating == 5.5 })
        #expect([[4.5, 5.5], [5.5]].contains(third.recorded.map(\.rating)))
        #expect(first.recorded.isEmpty)
    }

    @Test func staysQuietWhenAPatchChangesNothing() throws {
        let seen = Recorder<Movie>()
        let subscription = store.changes(of: 1).subscribe(onNext: seen.record)
        defer { subscription.dispose() }

        _ = try store.update(id: 1, with: MoviePatch(title: sampleMovies()[0].title))
        _ = try store.update(id: 1, with: MoviePatch())
        _ = try store.update(id: 1, with: MoviePatch(year: 1900))
        #expect(seen.wait(for: 1).map(\.year) == [1900])
        #expect(seen.recorded.count == 1)
    }

    @Test func letsObserversUseTheStore() throws {
        // An observer that reads and writes the store would deadlock if the store held its lock
        // while delivering.
        let seen = Recorder<Movie?>()
        let subscription = store.changes(of: 1).subscribe(onNext: { [store] _ in
            _ = try? store.update(id: 2, with: MoviePatch(title: "Written from an observer"))
            seen.record(try? store.movie(id: 2))
        })
        defer { subscription.dispose() }

        _ = try store.update(id: 1, with: MoviePatch(rating: 3.3))
        #expect(seen.wait(for: 1).first??.title == "Written from an observer")
    }

    @Test func endsWithTheLastCommittedStateUnderConcurrentWrites() async throws {
        let seen = Recorder<Movie>()
        let subscription = store.changes(of: 1).subscribe(onNext: seen.record)
        defer { subscription.dispose() }

        let writers = 4
        let rounds = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask { [store] in
                    for round in 0..<rounds {
                        // Distinct ratings other than the seeded 1.0, so every update is a change.
                        let step = round * writers + writer
                        _ = try store.update(id: 1, with: MoviePatch(rating: Double(step < 10 ? step : step + 1) / 10))
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try store.movie(id: 1)
        #expect(eventually { seen.recorded.last == final })
        // Versions waiting for delivery merge into the latest: fewer deliveries than commits, maybe, but no
        // version twice, and the last one last.
        let ratings = seen.recorded.map(\.rating)
        #expect(!ratings.isEmpty && ratings.count <= writers * rounds)
        #expect(Set(ratings).count == ratings.count)
    }

    @Test func mergesTheVersionsCommittedWhileADeliveryWaits() throws {
        // Writers faster than the deliveries (each goes to every screen of the movie) queued one delivery per
        // commit, without bound; a movie now has at most one version waiting, the latest.
        let seen = Recorder<Double>()
        let delivering = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = TestMutex(true)
        let subscription = store.changes(of: 2).subscribe(onNext: { movie in
            seen.record(movie.rating)
            let isFirst = first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            if isFirst {
                delivering.signal()
                release.wait()
            }
        })
        defer { subscription.dispose() }
        _ = try store.update(id: 2, with: MoviePatch(rating: 1.5))
        delivering.wait()
        for rating in [2.5, 3.5, 4.5] { _ = try store.update(id: 2, with: MoviePatch(rating: rating)) }
        release.signal()
        #expect(seen.wait(for: 2) == [1.5, 4.5])
        Thread.sleep(forTimeInterval: 0.1)
        #expect(seen.recorded == [1.5, 4.5])
    }

    @Test func aSlowObserverSkipsVersionsButNeverGoesBack() throws {
        let seen = Recorder<Double>()
        let subscription = store.changes(of: 3).subscribe(onNext: { movie in
            seen.record(movie.rating)
            usleep(2_000)
        })
        defer { subscription.dispose() }
        let ratings = (1...60).map { Double($0) / 10 }
        for rating in ratings { _ = try store.update(id: 3, with: MoviePatch(rating: rating)) }
        #expect(eventually { seen.recorded.last == 6.0 })
        let delivered = seen.recorded
        #expect(delivered == delivered.sorted() && Set(delivered).count == delivered.count)
        #expect(delivered.count < ratings.count)
    }

    @Test func stopsDeliveringOnceDisposed() throws {
        let disposed = Recorder<Movie>()
        let kept = Recorder<Movie>()
        store.changes(of: 2).subscribe(onNext: disposed.record).dispose()
        let subscription = store.changes(of: 2).subscribe(onNext: kept.record)
        defer { subscription.dispose() }

        _ = try store.update(id: 2, with: MoviePatch(rating: 9))
        #expect(kept.wait(for: 1).count == 1)
        #expect(disposed.recorded.isEmpty)
    }

    @Test func manyObserversOfOneMovieEachGetOneDeliveryUntilDisposed() throws {
        // Screens of one movie come and go in any order (a full server ends the least recently used one per page
        // load): whoever is still observing gets each change exactly once.
        let recorders = (0..<200).map { _ in Recorder<Movie>() }
        var subscriptions = recorders.map { store.changes(of: 2).subscribe(onNext: $0.record) }
        var generator = SystemRandomNumberGenerator()
        let dropped = Set((0..<200).filter { _ in Bool.random(using: &generator) })
        for index in dropped.shuffled() { subscriptions[index].dispose() }

        _ = try store.update(id: 2, with: MoviePatch(rating: 2.5))
        for (index, recorder) in recorders.enumerated() where !dropped.contains(index) {
            #expect(recorder.wait(for: 1).map(\.rating) == [2.5], "observer \(index)")
        }
        for index in dropped { #expect(recorders[index].recorded.isEmpty, "disposed observer \(index)") }

        for subscription in subscriptions { subscription.dispose() }
        subscriptions.removeAll()
        let probe = Recorder<Movie>()
        let last = store.changes(of: 2).subscribe(onNext: probe.record)
        defer { last.dispose() }
        _ = try store.update(id: 2, with: MoviePatch(rating: 3.5))
        #expect(probe.wait(for: 1).count == 1)
        #expect(recorders.allSatisfy { $0.recorded.count <= 1 })
    }

    @Test func observersHearAChangeInTheOrderTheyStartedObserving() throws {
        // Screens are served a change in the order they were opened, across stops in any order and the list's
        // compaction (the feed drops its emptied entries once they are as many as the observing ones).
        let heard = Recorder<Int>()
        var subscriptions: [Int: any Disposable] = [:]
        for index in 0..<90 {
            subscriptions[index] = store.changes(of: 3).subscribe(onNext: { _ in heard.record(index) })
        }
        var generator = SystemRandomNumberGenerator()
        for index in (0..<90).filter({ $0 % 3 != 0 }).shuffled(using: &generator) {
            subscriptions.removeValue(forKey: index)?.dispose()
        }
        for index in 90..<100 {
            subscriptions[index] = store.changes(of: 3).subscribe(onNext: { _ in heard.record(index) })
        }
        defer { subscriptions.values.forEach { $0.dispose() } }
        let observing = subscriptions.keys.sorted()

        _ = try store.update(id: 3, with: MoviePatch(rating: 1.5))
        #expect(heard.wait(for: observing.count) == observing)
        _ = try store.update(id: 3, with: MoviePatch(rating: 2.5))
        #expect(heard.wait(for: 2 * observing.count) == observing + observing)
    }

    @Test func aPausedSubscriptionIsSkippedAndResumesWithTheLatestVersionItMissedOnce() throws {
        let seen = Recorder<Movie>()
        // Subscribed with an observer, the subscription is the source's own (`subscribe(onNext:)` wraps it).
        let subscription = store.changes(of: 2).subscribe(
            AnyObserver<Movie> { event in if case .next(let movie) = event { seen.record(movie) } })
        defer { subscription.dispose() }
        let pausable = try #require(subscription as? any PausableDisposable)
        pausable.pause()
        _ = try store.update(id: 2, with: MoviePatch(rating: 3.1))
        let latest = try store.update(id: 2, with: MoviePatch(rating: 3.2))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(seen.recorded.isEmpty)
        pausable.resume()
        // Before `resume` returns: the version it missed, once.
        #expect(seen.recorded == [latest])
        pausable.resume()
        let next = try store.update(id: 2, with: MoviePatch(rating: 3.3))
        #expect(seen.wait(for: 2) == [latest, next])
        // Paused and resumed with nothing missed: nothing is delivered again.
        pausable.pause()
        pausable.resume()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(seen.recorded == [latest, next])
    }
}
