print("movies: not built yet")
