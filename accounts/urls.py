from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # login, logout, password change and reset: Django's views with our templates
    path("", include("django.contrib.auth.urls")),
]
