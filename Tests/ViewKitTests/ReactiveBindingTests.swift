import Reactive
import Testing
import ViewKit

@Suite struct ReactiveBindingTests {
    @Test func buttonTapsReachObserversOnlyWhileEnabledAndSubscribed() {
        let button = Button(title: "Back", actionName: "close")
        var taps = 0
        let subscription = button.rx.tap.bind { taps += 1 }
        button.sendActions()
        button.isEnabled = false
        button.sendActions()
        button.isEnabled = true
        button.sendActions()
        subscription.dispose()
        button.sendActions()
        #expect(taps == 2)
    }

    @Test func bindersSetPropertiesAndMarkTheViewDirty() {
        let root = View()
        let label = Label()
        let image = ImageView()
        let button = Button()
        root.addSubview(label)
        root.addSubview(image)
        root.addSubview(button)
        _ = root.html
        let bag = DisposeBag()
        Observable.just("Heat").bind(to: label.rx.text).disposed(by: bag)
        Observable.just(true).bind(to: image.rx.isHidden).disposed(by: bag)
        Observable.just("/heat.jpg").bind(to: image.rx.imageURL).disposed(by: bag)
        Observable.just(false).bind(to: button.rx.isEnabled).disposed(by: bag)
        Observable.just("Close").bind(to: button.rx.title).disposed(by: bag)
        Observable.just(true).bind(to: label.rx.hasClass("featured")).disposed(by: bag)
        #expect(label.text == "Heat")
        Observable<String?>.just(nil).bind(to: label.rx.text).disposed(by: bag)
        #expect(label.text == "")
        Observable.just("Heat").bind(to: label.rx.text).disposed(by: bag)
        #expect(label.classList.contains("featured"))
        #expect(image.isHidden && image.imageURL == "/heat.jpg")
        #expect(!button.isEnabled && button.title == "Close")
        let changed = root.takeChanges(context: RenderContext()).map { change -> String in
            if case .replace(let id, _) = change { return id }
            return "?"
        }
        #expect(changed == [label.domID, image.domID, button.domID])
    }

    @Test func itemsBinderUpdatesListRows() {
        let list = ListView()
        let relay = BehaviorRelay(value: ["a", "b"])
        let bag = DisposeBag()
        relay.bind(
            to: list.rx.items(id: { $0 }, makeRow: { _ in Label(tagName: "li") }) { row, item in
                (row as! Label).text = item
            }
        ).disposed(by: bag)
        relay.accept(["b", "c"])
        #expect(list.rows.map { ($0 as! Label).text } == ["b", "c"])
    }

    /// State that lives on one screen, as a view controller would hold it.
    final class Screen {
        let label = Label()
        let bag = DisposeBag()
    }

    @Test func drivingALabelOnItsScreenDeliversTheCurrentValueAtOnceAndLaterOnesOnTheScreen() {
        let scheduler = ScreenScheduler(label: "viewkit.rx-test")
        let screen = ScreenConfined(Screen(), on: scheduler)
        let title = BehaviorRelay(value: "Heat")
        let first = scheduler.sync { () -> String in
            let screen = screen.value
            title.asDriver().drive(screen.label.rx.text).disposed(by: screen.bag)
            return screen.label.text
        }
        #expect(first == "Heat")
        title.accept("Ronin")  // from another thread: hops onto the screen's queue
        #expect(scheduler.sync { screen.value.label.text } == "Ronin")
    }
}
