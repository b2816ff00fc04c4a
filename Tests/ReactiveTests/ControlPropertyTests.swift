import Reactive
import Testing

extension ReactiveTests {
    @Suite struct ControlPropertyTests {
        final class Field {
            let text = BehaviorRelay<String?>(value: nil)
        }

        func textProperty(of field: Field) -> ControlProperty<String?> {
            ControlProperty(values: field.text, valueSink: Binder(field) { field, text in field.text.accept(text) })
        }

        @Test func sendsTheCurrentValueThenChanges() {
            expectNoLeaks {
                let field = Field()
                var received: [String?] = []
                let subscription = textProperty(of: field).subscribe(onNext: { received.append($0) })
                field.text.accept("a")
                #expect(received == [nil, "a"])
                subscription.dispose()
            }
        }

        @Test func bindingToItSetsTheProperty() {
            expectNoLeaks {
                let field = Field()
                let subscription = Observable.just("typed").bind(to: textProperty(of: field))
                #expect(field.text.value == "typed")
                subscription.dispose()
            }
        }

        @Test func changedSkipsTheCurrentValue() {
            expectNoLeaks {
                let field = Field()
                field.text.accept("initial")
                var received: [String?] = []
                let subscription = textProperty(of: field).changed.subscribe(onNext: { received.append($0) })
                field.text.accept("edited")
                #expect(received == ["edited"])
                subscription.dispose()
            }
        }

        @Test func orEmptyReadsNilAsEmpty() {
            expectNoLeaks {
                let field = Field()
                var received: [String] = []
                let subscription = textProperty(of: field).orEmpty.subscribe(onNext: { received.append($0) })
                #expect(received == [""])
                subscription.dispose()
            }
        }
    }
}
