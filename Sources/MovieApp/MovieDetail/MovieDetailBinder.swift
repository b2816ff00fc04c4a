// swift-format-ignore-file
// The seed's binder (chapter 3), kept as written: only the imports differ, and Refresh is bound like Back.

import FoundationEssentials
import Reactive
import Screenplay
import ViewKit

final class MovieDetailBinder: ViewControllerBinder {
    unowned let viewController: MovieDetailViewController
    private let driver: MovieDetailDriving

    init(viewController: MovieDetailViewController,
         driver: MovieDetailDriving) {
        self.viewController = viewController
        self.driver = driver
        bind()
    }

    func dispose() { }

    func bindLoaded() {
        // 1. Style
        viewController.statusBarStyle = .lightContent

        // 2. State
        viewController.bag.insert(
            viewController.rx.viewWillAppear
                .bind(onNext: unowned(self, in: MovieDetailBinder.viewWillAppear)),
            driver.data
                .drive(onNext: unowned(self, in: MovieDetailBinder.configure))
        )

        // 3. Action
        viewController.bag.insert(
            viewController.backButton.rx.tap
                .bind(onNext: driver.close),
            viewController.refreshButton.rx.tap
                .bind(onNext: driver.refresh)
        )
    }

    private func viewWillAppear(_ animated: Bool) {
        viewController.navigationController?.setNavigationBarHidden(true, animated: animated)
    }

    private func configure(_ data: MovieDetailData) {
        viewController.headerView.configure(with: data)
        viewController.tipsView.configure(with: data)
        if let url = data.posterUrl {
            Nuke.loadImage(with: URL(string: url)!, into: viewController.posterImageView)
        }
    }
}
