import Screenplay
import ViewKit

/// The MovieEdit screen at `/movies/:id/edit`, from `Templates/MovieEdit.html`.
final class MovieEditViewController: ViewController {
    @Outlet("headingLabel") var headingLabel: Label
    @Outlet("statusLabel") var statusLabel: Label
    @Outlet("titleField") var titleField: TextField
    @Outlet("yearField") var yearField: TextField
    @Outlet("runtimeField") var runtimeField: TextField
    @Outlet("genresField") var genresField: TextField
    @Outlet("ratingField") var ratingField: TextField
    @Outlet("overviewField") var overviewField: TextView
    @Outlet("posterField") var posterField: FileField
    @Outlet("saveButton") var saveButton: Button
    @Outlet("cancelButton") var cancelButton: Button
    @Outlet("deleteButton") var deleteButton: Button
}
