import Reactive

/// The MovieDetail screen's state and intents.
protocol MovieDetailDriving: AnyObject {
    /// The movie and the state of reading it; never errors, replays the latest.
    var data: Driver<MovieDetailData> { get }
    /// Leaves the screen, back to the list.
    func close()
    /// Reads the movie again, showing the refreshing state meanwhile.
    func refresh()
}
