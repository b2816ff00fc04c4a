import Primitives
import Reactive
import Screenplay
import ViewKit

/// The edit screen's state and intents.
protocol MovieEditDriving {
    /// The form and what to say about it; never errors, replays the latest.
    var data: Driver<MovieEditData> { get }
    /// The user changed a field's text.
    func setTitle(_ text: String)
    func setYear(_ text: String)
    func setRuntime(_ text: String)
    func setGenres(_ text: String)
    func setRating(_ text: String)
    func setOverview(_ text: String)
    /// Saves the form through the store, unless a field is invalid or the movie changed meanwhile.
    func save()
    /// Leaves without saving.
    func cancel()
    /// Deletes the movie (the user confirmed it) and goes to the list; says why when it cannot.
    func delete()
    /// What happened to an upload of the Poster field: a finished one becomes the movie's poster at once.
    func posterUploaded(_ event: FileEvent)
}

/// Keeps the form's text, checks it with the store's rules and saves it with a version check.
final class MovieEditDriver: MovieEditDriving {
    let data: Driver<MovieEditData>
    private let state: BehaviorRelay<MovieEditData>
    private let movieID: Int
    private let store: any MovieStore
    private let navigate: (String) -> Void
    /// Where a finished poster is read and kept (a background scheduler in the app, a `TestScheduler` in tests), so
    /// that the screen goes on answering meanwhile.
    private let writeScheduler: any ImmediateSchedulerType
    /// The screen the driver was made on: what the background work finds comes back to it.
    private let screen: ScreenScheduler?
    /// The finished upload being kept as the poster on the write scheduler, until what it found is shown.
    private var pendingPoster: UploadedFile?
    /// Held while a poster is kept: the write scheduler's keeping and a Save's never overlap.
    private let keeping = Locked(())
    private let bag = DisposeBag()
    /// Whether the screen is on its way to the list (a deletion, here or elsewhere): it goes once.
    private var isLeavingForTheList = false

    /// With `follows` false (a page's render: ``ScreenRequest/isLive``) the driver does not follow the movie's
    /// deletion, which a render can never show.
    init(
        movie: Movie, store: any MovieStore, writeScheduler: any ImmediateSchedulerType, follows: Bool = true,
        navigate: @escaping (String) -> Void
    ) {
        state = BehaviorRelay(value: MovieEditData(original: movie, form: MovieForm(movie: movie)))
        data = state.asDriver()
        movieID = movie.id
        self.store = store
        self.navigate = navigate
        self.writeScheduler = writeScheduler
        screen = ScreenScheduler.current
        guard follows else { return }
        // A deletion, here or on any instance, takes the form to the list: there is nothing left to edit.
        var deletion = store.deletion(of: movie.id)
        if let screen = ScreenScheduler.current { deletion = deletion.conflated(on: screen) }
        deletion
            .subscribe(onNext: { [weak self] in self?.goToTheList() })
            .disposed(by: bag)
    }

    private func goToTheList() {
        guard !isLeavingForTheList else { return }
        isLeavingForTheList = true
        navigate("/")
    }

    func setTitle(_ text: String) { edit { $0.title = text } }
    func setYear(_ text: String) { edit { $0.year = text } }
    func setRuntime(_ text: String) { edit { $0.runtime = text } }
    func setGenres(_ text: String) { edit { $0.genres = text } }
    func setRating(_ text: String) { edit { $0.rating = text } }
    func setOverview(_ text: String) { edit { $0.overview = text } }

    private func edit(_ change: (inout MovieForm) -> Void) {
        var current = state.value
        change(&current.form)
        guard current != state.value else { return }
        state.accept(current)
    }

    func save() {
        // A poster still being kept (a form posted without JavaScript sends its file with Save) is kept first, so
        // that the save compares against the movie with it.
        if let file = pendingPoster { showKept(file, keepPoster(file)) }
        var current = state.value
        let form = current.form
        guard current.errors.isEmpty else {
            current.status = "The movie was not saved: correct the fields marked below."
            return state.accept(current)
        }
        do {
            let patch = try MoviePatch(
                title: form.title, year: Int(form.year.trimmingWhitespace()),
                runtimeMinutes: Int(form.runtime.trimmingWhitespace()), genres: form.genreList,
                rating: Double(form.rating), overview: form.overview)
            _ = try store.update(id: movieID, with: patch, ifUnchangedSince: current.original)
            navigate("/movies/\(movieID)")
        } catch let error as StoreError where error.kind == .conflict {
            guard let latest = try? store.movie(id: movieID) else {
                current.status = "The movie is no longer in the catalog."
                return state.accept(current)
            }
            state.accept(
                MovieEditData(
                    original: latest, form: MovieForm(movie: latest),
                    status: "Someone else changed this movie while you were editing. These are the current values: "
                        + "make your change again, then save."))
        } catch let error as MoviePatchError {
            current.status = error.sentence
            state.accept(current)
        } catch {
            current.status = "The movie could not be saved right now. Try again in a moment."
            state.accept(current)
        }
    }

    func cancel() {
        navigate("/movies/\(movieID)")
    }

    func delete() {
        do {
            try store.delete(id: movieID)
            goToTheList()
        } catch let error as StoreError where error.kind == .notFound {
            // Gone already (deleted elsewhere): the list is where the user was going.
            goToTheList()
        } catch {
            var current = state.value
            current.status = "The movie could not be deleted right now. Try again in a moment."
            state.accept(current)
        }
    }

    /// A finished upload, byte for byte, becomes the poster (the endpoint checked it is a PNG, JPEG or WebP image;
    /// its first bytes are told again here, never its name), and the upload is discarded once the store keeps it.
    /// The file is read and kept on the write scheduler; the screen says "Saving the poster…" meanwhile. The form's
    /// other fields are not saved by it, and a later Save does not take the new poster for someone else's change.
    func posterUploaded(_ event: FileEvent) {
        guard case .finished(let file) = event else { return }
        var current = state.value
        guard store is any MoviePosters else {
            current.status = "This catalog cannot keep posters."
            return state.accept(current)
        }
        current.status = "Saving the poster…"
        state.accept(current)
        pendingPoster = file
        let screen = screen
        let keep = { [keepPoster] in keepPoster(file) }
        let show = { [weak self] (kept: KeptPoster) in self?.showKept(file, kept) }
        // Called on the screen alone (or, off a screen, on the write scheduler: a test's own thread).
        let transfer = Transfer(show)
        writeScheduler.schedule(()) { _ in
            let kept = keep()
            guard let screen else {
                transfer.value(kept)
                return Disposables.create()
            }
            return screen.schedule(()) { _ in
                transfer.value(kept)
                return Disposables.create()
            }
        }
        .disposed(by: bag)
    }

    /// What keeping a poster found: its new address, if it was kept, and what to say.
    typealias KeptPoster = (posterUrl: String?, status: String)

    /// Shows what keeping `file` found, unless it was shown already (by a Save that kept it first).
    private func showKept(_ file: UploadedFile, _ kept: KeptPoster) {
        guard pendingPoster?.id == file.id else { return }
        pendingPoster = nil
        var current = state.value
        if let posterUrl = kept.posterUrl { current.original.posterUrl = posterUrl }
        current.status = kept.status
        state.accept(current)
    }

    /// Reads `file`, keeps it as the movie's poster and discards the upload; any thread. A file kept already (by
    /// the write scheduler or a Save, whichever came first) is not read again.
    private var keepPoster: @Sendable (UploadedFile) -> KeptPoster {
        let (store, movieID, keeping) = (store, movieID, keeping)
        return { file in
            keeping.withLock { _ in
                guard let posters = store as? any MoviePosters else {
                    return (nil, "This catalog cannot keep posters.")
                }
                let path = postersPath + file.id
                if let movie = try? store.movie(id: movieID), movie.posterUrl == path {
                    return (path, "The new poster is saved.")
                }
                do {
                    let bytes = try file.contents()
                    guard let kind = FileKind.sniff(bytes) else {
                        return (nil, "The poster was not kept: it is not a PNG, JPEG or WebP image.")
                    }
                    let movie = try posters.setPoster(
                        id: movieID, StoredPoster(key: file.id, kind: kind, bytes: bytes))
                    // The store has the bytes now: the upload's room in the quota comes back at once.
                    try? file.discard()
                    return (movie.posterUrl, "The new poster is saved.")
                } catch {
                    return (nil, "The poster could not be saved right now. Try again in a moment.")
                }
            }
        }
    }
}
