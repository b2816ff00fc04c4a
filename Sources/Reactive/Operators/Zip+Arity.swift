extension ObservableType {
    /// Sends `resultSelector` of the four sources' elements by index; completes when all have completed, fails on
    /// the first error.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4,
        resultSelector: @escaping (Source1.Element, Source2.Element, Source3.Element, Source4.Element) throws -> Element
    ) -> Observable<Element> {
        zipOf([
            source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
            source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any },
        ]) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element,
                values[3] as! Source4.Element)
        }
    }

    /// Sends the four sources' elements by index, as tuples.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4
    ) -> Observable<Element> where Element == (Source1.Element, Source2.Element, Source3.Element, Source4.Element) {
        zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
    }

    /// Sends `resultSelector` of the five sources' elements by index; completes when all have completed, fails on
    /// the first error.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        resultSelector:
            @escaping (Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element) throws ->
            Element
    ) -> Observable<Element> {
        zipOf([
            source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
            source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any },
            source5.asObservable().map { $0 as Any },
        ]) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element,
                values[3] as! Source4.Element, values[4] as! Source5.Element)
        }
    }

    /// Sends the five sources' elements by index, as tuples.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5
    ) -> Observable<Element>
    where Element == (Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element) {
        zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
    }

    /// Sends `resultSelector` of the six sources' elements by index; completes when all have completed, fails on
    /// the first error.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType, Source6: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        _ source6: Source6,
        resultSelector:
            @escaping (
                Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element, Source6.Element
            ) throws -> Element
    ) -> Observable<Element> {
        zipOf([
            source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
            source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any },
            source5.asObservable().map { $0 as Any }, source6.asObservable().map { $0 as Any },
        ]) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element,
                values[3] as! Source4.Element, values[4] as! Source5.Element, values[5] as! Source6.Element)
        }
    }

    /// Sends the six sources' elements by index, as tuples.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType, Source6: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        _ source6: Source6
    ) -> Observable<Element>
    where
        Element == (
            Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element, Source6.Element
        )
    {
        zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
    }

    /// Sends `resultSelector` of the seven sources' elements by index; completes when all have completed, fails on
    /// the first error.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType, Source6: ObservableConvertibleType,
        Source7: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        _ source6: Source6, _ source7: Source7,
        resultSelector:
            @escaping (
                Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element, Source6.Element,
                Source7.Element
            ) throws -> Element
    ) -> Observable<Element> {
        zipOf([
            source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
            source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any },
            source5.asObservable().map { $0 as Any }, source6.asObservable().map { $0 as Any },
            source7.asObservable().map { $0 as Any },
        ]) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element,
                values[3] as! Source4.Element, values[4] as! Source5.Element, values[5] as! Source6.Element,
                values[6] as! Source7.Element)
        }
    }

    /// Sends the seven sources' elements by index, as tuples.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType, Source6: ObservableConvertibleType,
        Source7: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        _ source6: Source6, _ source7: Source7
    ) -> Observable<Element>
    where
        Element == (
            Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element, Source6.Element,
            Source7.Element
        )
    {
        zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
    }

    /// Sends `resultSelector` of the eight sources' elements by index; completes when all have completed, fails on
    /// the first error.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType, Source6: ObservableConvertibleType,
        Source7: ObservableConvertibleType, Source8: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        _ source6: Source6, _ source7: Source7, _ source8: Source8,
        resultSelector:
            @escaping (
                Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element, Source6.Element,
                Source7.Element, Source8.Element
            ) throws -> Element
    ) -> Observable<Element> {
        zipOf([
            source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any },
            source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any },
            source5.asObservable().map { $0 as Any }, source6.asObservable().map { $0 as Any },
            source7.asObservable().map { $0 as Any }, source8.asObservable().map { $0 as Any },
        ]) { values in
            try resultSelector(
                values[0] as! Source1.Element, values[1] as! Source2.Element, values[2] as! Source3.Element,
                values[3] as! Source4.Element, values[4] as! Source5.Element, values[5] as! Source6.Element,
                values[6] as! Source7.Element, values[7] as! Source8.Element)
        }
    }

    /// Sends the eight sources' elements by index, as tuples.
    public static func zip<
        Source1: ObservableConvertibleType, Source2: ObservableConvertibleType, Source3: ObservableConvertibleType,
        Source4: ObservableConvertibleType, Source5: ObservableConvertibleType, Source6: ObservableConvertibleType,
        Source7: ObservableConvertibleType, Source8: ObservableConvertibleType
    >(
        _ source1: Source1, _ source2: Source2, _ source3: Source3, _ source4: Source4, _ source5: Source5,
        _ source6: Source6, _ source7: Source7, _ source8: Source8
    ) -> Observable<Element>
    where
        Element == (
            Source1.Element, Source2.Element, Source3.Element, Source4.Element, Source5.Element, Source6.Element,
            Source7.Element, Source8.Element
        )
    {
        zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
    }
}
