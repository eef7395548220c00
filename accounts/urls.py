from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("email/", views.account, name="account"),
    path("email/resend/", views.verification_resend, name="verification-resend"),
    path("verify/<str:token>/", views.verify_email, name="verify-email"),
    path("password_change/", views.PasswordChange.as_view(), name="password_change"),
    path("password_reset/", views.PasswordReset.as_view(), name="password_reset"),
    path(
        "reset/<uidb64>/<token>/",
        views.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    # A suspended player's right password is told why (accounts.forms.LoginForm).
    path("login/", views.Login.as_view(), name="login"),
    # logout, password change and reset: Django's views with our templates
    path("", include("django.contrib.auth.urls")),
]
