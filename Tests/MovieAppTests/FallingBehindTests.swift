import Dispatch
import Foundation
import Reactive
import Synchronization
import TestSupport
import Testing

@testable import MovieApp

/// A screen busy while its movie is written many times takes the latest version when it is free again, instead of
/// every version queued (which, under a stream of PATCHes, grew the server's memory without bound).
@Suite struct FallingBehindTests {
    let folder: TemporaryFolder
    let store: SQLiteMovieStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteMovieStore(
            path: folder.path("movies.sqlite"), seedingFrom: try folder.catalog(sampleMovies()))
    }

    /// Writes movie 1's rating `count` times while `screen` is busy; returns once the change feed has delivered the last.
    private func writeWhileBusy(_ screen: ScreenScheduler, count: Int) throws {
        try whileBusy({ screen.schedule($0) }) {
            let delivered = Recorder<Movie>()
            let probe = store.changes(of: 1).subscribe(onNext: delivered.record)
            defer { probe.dispose() }
            for step in 1...count { _ = try store.update(id: 1, with: MoviePatch(rating: Double(step) / 10)) }
            // Versions waiting for delivery merge into the latest: the last one is delivered last.
            #expect(eventually { delivered.recorded.last?.rating == Double(count) / 10 })
        }
        screen.sync {}
        screen.sync {}
    }

    /// The ratings of movie 1 a screen's driver shows, from its first value to the end of a busy spell of 50 writes.
    /// `subscribe` makes the driver on the screen and drives the ratings it shows into `record`.
    private func ratingsShown(
        on label: String,
        _ subscribe:
            @escaping (_ record: @escaping (Double) -> Void) -> (driver: AnyObject, subscription: any Disposable)
    ) throws -> [Double] {
        let screen = ScreenScheduler(label: label)
        let ratings = TestMutex<[Double]>([])
        let kept = screen.sync {
            Transfer(subscribe { rating in ratings.withLock { $0.append(rating) } })
        }
        defer { screen.sync { kept.value.subscription.dispose() } }
        try writeWhileBusy(screen, count: 50)
        return ratings.withLock { $0 }
    }

    @Test func aBusyDetailScreenTakesTheLatestMovie() throws {
        let seen = try ratingsShown(on: "falling-behind-detail") { [store] record in
            let driver = MovieDetailDriver(
                movieID: 1, store: store, readScheduler: ConcurrentDispatchQueueScheduler(qos: .default)
            ) {}
            return (driver, driver.data.drive(onNext: { record($0.movie?.rating ?? -1) }))
        }
        #expect(seen.last == 5.0)
        // The first value, then the newest after the busy spell: not fifty more.
        #expect(seen.count <= 3, "\(seen)")
    }

    @Test func aDetailDriverStopsFollowingItsMovieWhenItGoes() throws {
        // The driver holds the subscription to its movie's changes itself (no bag until a refresh): releasing the
        // driver disposes it, on a screen (where changes are conflated) and off one. Counted at the store, not by the
        // process-wide `Resources.total`, which the suites running beside this one move.
        let screen = ScreenScheduler(label: "driver-released")
        #expect(store.changeObserverCount(of: 1) == 0)
        for onScreen in [true, false] {
            let make = { [store] in
                let driver = MovieDetailDriver(
                    movieID: 1, store: store, readScheduler: ConcurrentDispatchQueueScheduler(qos: .default)
                ) {}
                #expect(store.changeObserverCount(of: 1) == 1, "while held, on a screen: \(onScreen)")
                withExtendedLifetime(driver) {}
            }
            if onScreen { screen.sync(make) } else { make() }
            #expect(store.changeObserverCount(of: 1) == 0, "released, on a screen: \(onScreen)")
        }
    }

    @Test func aBusyListScreenTakesTheLatestMovie() throws {
        let seen = try ratingsShown(on: "falling-behind-list") { [store] record in
            let driver = MovieListDriver(store: store)
            return (
                driver,
                driver.data.drive(onNext: {
                    record(driver.movies(in: 0..<$0.total).first { $0.id == 1 }?.rating ?? -1)
                })
            )
        }
        #expect(seen.last == 5.0)
        #expect(seen.count <= 3, "\(seen)")
    }
}

/// Hands a screen's object to the test thread, which only keeps it alive and gives it back to the screen.
struct Transfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
