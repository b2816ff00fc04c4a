internal import HTTPServer

extension Application {
    /// Takes resumable uploads at `/uploads`, over tus 1.0.0 (tus.io), so that any tus client works: tus-js-client,
    /// Uppy, TUSKit, tuspy. Call it before ``start()``.
    ///
    /// A creation's `Upload-Metadata` must carry the screen session's id under `screen` and the page's CSRF token
    /// under `csrf` (``UploadMetadataKey``); `field`, `filename` and `filetype` are kept with the upload. Uploads are
    /// kept by `storage`, by default a ``FileUploadStorage`` in ``UploadConfiguration/folder``. `onFinished` runs on the
    /// thread that received the body (an I/O thread, or a large body's reader) once its last byte is stored: keep it
    /// short.
    ///
    /// The file field the upload names (its `field`, on the screen its `screen` names, when that screen is live on this
    /// instance, or on another one ``connectInstances(through:)`` reaches) sees what happens to it on `rx.file`
    /// (``FileEvent``): started, progress (a few times a second),
    /// finished with the file, failed with a message (a refused content, a termination). A form holding a file field
    /// posts `multipart/form-data` without JavaScript: its files are stored here too, under the same limits, and its
    /// fields hear of them the same way before its action runs.
    ///
    /// ```swift
    /// try app.acceptUploads(UploadConfiguration(folder: ".data/uploads")) { upload in
    ///     print("\(upload.metadata["filename"] ?? upload.id): \(upload.length) bytes")
    /// }
    /// ```
    ///
    /// - Throws: ``ConfigurationError`` when the folder cannot be created or a limit is not positive.
    public func acceptUploads(
        _ configuration: UploadConfiguration, storage: (any UploadStorage)? = nil,
        onFinished: @escaping @Sendable (UploadInfo) -> Void = { _ in }
    ) throws {
        guard configuration.maxSize > 0, configuration.quota > 0, configuration.lifetime > .zero,
            configuration.maxConcurrentWrites > 0
        else {
            throw ConfigurationError(
                "UploadConfiguration: maxSize, quota, lifetime and maxConcurrentWrites must be positive (got "
                    + "\(configuration.maxSize), \(configuration.quota), \(configuration.lifetime), "
                    + "\(configuration.maxConcurrentWrites)).")
        }
        let chosen: any UploadStorage
        if let storage {
            chosen = storage
        } else {
            do { chosen = try FileUploadStorage(folder: configuration.folder) } catch {
                throw ConfigurationError("UploadConfiguration.folder: \(error)")
            }
        }
        let observer = UploadEvents.deliverer(to: sessions, storage: chosen, instances: instances)
        let endpoint = TusEndpoint(
            authorizes: TusEndpoint.authorization(by: sessions, router: screens, instances: instances),
            storage: chosen,
            configuration: configuration,
            onFinished: onFinished, logger: logger,
            observer: observer)
        endpoint.register(on: router)
        // Expired uploads go soon after they expire, not only when the next upload is created.
        sweep.addChore { endpoint.sweepExpired() }
        // A form with a file field posted without JavaScript: its files reach the same storage and the same fields.
        let spools = SpoolBudget(limit: configuration.quota)
        metrics.addCollector { spools.exposition() }
        let form = FormUploads(
            storage: chosen, configuration: configuration,
            observer: { event in
                if case .finished(let info) = event { onFinished(info) }
                observer(event)
            }, spools: spools)
        router.receive(.post, ScreenWire.action.pattern) { [weak self] request in
            try self.served().actions.receiveMultipartAction(request, uploads: form)
        }
    }
}
